import { CloseButton, Dialog, Portal, Table, Text } from '@chakra-ui/react';
import { Logo } from '../../../components/logo';
import type { Agent } from '../api/agents-api';

/** The large dialog behind an agent's '{n} Tools' button: logo, display name and description. */
export function AgentToolsDialog({ agent, onClose }: { agent: Agent | null; onClose: () => void }) {
  return (
    <Dialog.Root
      open={agent !== null}
      onOpenChange={(e) => !e.open && onClose()}
      size="xl"
      scrollBehavior="inside"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content aria-describedby={undefined}>
            <Dialog.Header>
              <Dialog.Title>Tools of {agent?.name}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {agent && agent.tools.length === 0 ? (
                <Text color="fg.muted">This agent has no tools yet.</Text>
              ) : (
                <Table.ScrollArea>
                  <Table.Root size="sm">
                    <Table.Header>
                      <Table.Row>
                        <Table.ColumnHeader w="16">Logo</Table.ColumnHeader>
                        <Table.ColumnHeader>Name</Table.ColumnHeader>
                        <Table.ColumnHeader>Description</Table.ColumnHeader>
                      </Table.Row>
                    </Table.Header>
                    <Table.Body>
                      {agent?.tools.map((tool) => (
                        <Table.Row key={tool.id}>
                          <Table.Cell>
                            <Logo src={tool.logo} name={tool.app_name || tool.display_name} size="8" />
                          </Table.Cell>
                          <Table.Cell fontWeight="medium">{tool.display_name}</Table.Cell>
                          <Table.Cell color="fg.muted">{tool.description}</Table.Cell>
                        </Table.Row>
                      ))}
                    </Table.Body>
                  </Table.Root>
                </Table.ScrollArea>
              )}
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
