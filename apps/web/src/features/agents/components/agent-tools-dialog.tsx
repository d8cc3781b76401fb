import { Stack, Table, Text } from '@chakra-ui/react';
import { DialogShell } from '../../../components/form-dialog';
import { Logo } from '../../../components/logo';
import type { Agent } from '../api/agents-api';
import { NeedsReconnecting } from './needs-reconnecting';

/** The large dialog behind an agent's '{n} Tools' button: logo, display name and description. */
export function AgentToolsDialog({ agent, onClose }: { agent: Agent | null; onClose: () => void }) {
  return (
    <DialogShell
      open={agent !== null}
      onClose={onClose}
      title={`Tools of ${agent?.name ?? ''}`}
      size="xl"
      scrollInside
    >
      {agent && agent.tools.length === 0 ? (
        <Text color="fg.muted">This agent has no tools yet.</Text>
      ) : (
        <Table.ScrollArea>
          {/* Fixed columns: on a phone the text wraps inside them instead of running off the dialog. */}
          <Table.Root size="sm" tableLayout="fixed">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader w="16">Logo</Table.ColumnHeader>
                <Table.ColumnHeader w="40%">Name</Table.ColumnHeader>
                <Table.ColumnHeader>Description</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {agent?.tools.map((tool) => (
                <Table.Row key={tool.id}>
                  <Table.Cell>
                    <Logo src={tool.logo} name={tool.app_name || tool.display_name} size="8" />
                  </Table.Cell>
                  <Table.Cell
                    fontWeight="medium"
                    whiteSpace="normal"
                    overflowWrap="anywhere"
                    data-needs-reconnecting={tool.needs_reconnecting || undefined}
                  >
                    <Stack gap="1" align="start">
                      {tool.display_name}
                      {tool.needs_reconnecting && <NeedsReconnecting service={tool.app_name} />}
                    </Stack>
                  </Table.Cell>
                  <Table.Cell color="fg.muted" whiteSpace="normal" overflowWrap="anywhere">
                    {tool.description}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      )}
    </DialogShell>
  );
}
