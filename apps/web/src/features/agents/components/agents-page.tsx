import {
  Box,
  Button,
  Center,
  Heading,
  IconButton,
  Menu,
  Portal,
  Spinner,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { FiCopy, FiEdit2, FiMessageSquare, FiMoreVertical, FiPlus, FiTrash2 } from 'react-icons/fi';
import { SearchInput } from '../../../components/search-input';
import { toaster } from '../../../components/ui/toaster';
import { useFuzzyFilter } from '../../../lib/fuzzy';
import {
  createAgentMutation,
  deleteAgentMutation,
  forgetAgent,
  listAgentsOptions,
  refreshAgents,
  type Agent,
} from '../api/agents-api';
import { duplicateBody } from '../agents-logic';
import { AGENT_SEARCH_KEYS, AGENT_TEXT, AGENT_TOASTS } from '../constants';
import { AgentToolsDialog } from './agent-tools-dialog';
import { ConfirmDialog } from '../../../components/confirm-dialog';

/** The agent list (spec section 2). */
export function AgentsPage() {
  // The route's loader has just tried: a failure shows as it is instead of loading again.
  const agents = useQuery({ ...listAgentsOptions(), retryOnMount: false });
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [toolsOf, setToolsOf] = useState<Agent | null>(null);
  const [deleting, setDeleting] = useState<Agent | null>(null);
  const shown = useFuzzyFilter(agents.data, query, AGENT_SEARCH_KEYS);

  const duplicate = useMutation({
    ...createAgentMutation(),
    onSuccess: () => toaster.create(AGENT_TOASTS.created),
    onError: () => toaster.create(AGENT_TOASTS.createFailed),
    onSettled: () => refreshAgents(queryClient),
  });
  const remove = useMutation({
    ...deleteAgentMutation(),
    onSuccess: (_data, { path }) => {
      forgetAgent(queryClient, path.agent_id);
      toaster.create(AGENT_TOASTS.deleted);
    },
    onError: () => toaster.create(AGENT_TOASTS.deleteFailed),
    onSettled: () => {
      setDeleting(null);
      return refreshAgents(queryClient);
    },
  });

  let body: React.ReactNode;
  if (agents.isPending) {
    body = (
      <StateRow>
        <Spinner size="sm" color="brand.fg" me="2" />
        {AGENT_TEXT.loading}
      </StateRow>
    );
  } else if (agents.isError) {
    body = (
      <StateRow>
        <Text color="fg.error" role="alert">
          {AGENT_TEXT.loadError}
        </Text>
      </StateRow>
    );
  } else if (shown.length === 0) {
    body = (
      <StateRow>
        <Stack align="center" gap="2">
          <Text>{AGENT_TEXT.empty}</Text>
          <Button asChild variant="outline" size="sm">
            <Link to="/agents/create">{AGENT_TEXT.createFirst}</Link>
          </Button>
        </Stack>
      </StateRow>
    );
  } else {
    body = shown.map((agent) => (
      <Table.Row key={agent.id} data-testid="agent-row">
        <Table.Cell>
          <Button
            size="xs"
            colorPalette="brand"
            onClick={() => void navigate({ to: '/agents/$Id/chat', params: { Id: String(agent.id) } })}
            aria-label={`${AGENT_TEXT.start} chat with ${agent.name}`}
          >
            <FiMessageSquare aria-hidden="true" /> {AGENT_TEXT.start}
          </Button>
        </Table.Cell>
        <Table.Cell fontWeight="medium" maxW="48" truncate title={agent.name}>
          {agent.name}
        </Table.Cell>
        <Table.Cell color="fg.muted" maxW={{ base: '48', lg: 'md' }} truncate title={agent.description}>
          {agent.description}
        </Table.Cell>
        <Table.Cell>
          <Button
            size="xs"
            variant="outline"
            onClick={() => setToolsOf(agent)}
            aria-label={`${AGENT_TEXT.toolsButton(agent.tools.length)} of ${agent.name}`}
          >
            {AGENT_TEXT.toolsButton(agent.tools.length)}
          </Button>
        </Table.Cell>
        <Table.Cell textAlign="end">
          <Menu.Root
            onSelect={(details) => {
              if (details.value === 'edit')
                void navigate({ to: '/agents/$Id/edit', params: { Id: String(agent.id) } });
              if (details.value === 'duplicate') duplicate.mutate({ body: duplicateBody(agent) });
              if (details.value === 'delete') setDeleting(agent);
            }}
          >
            <Menu.Trigger asChild>
              <IconButton size="xs" variant="ghost" aria-label={`Actions for ${agent.name}`}>
                <FiMoreVertical />
              </IconButton>
            </Menu.Trigger>
            <Portal>
              <Menu.Positioner>
                <Menu.Content>
                  <Menu.Item value="edit">
                    <FiEdit2 aria-hidden="true" /> {AGENT_TEXT.edit}
                  </Menu.Item>
                  <Menu.Item value="duplicate" disabled={duplicate.isPending}>
                    <FiCopy aria-hidden="true" /> {AGENT_TEXT.duplicate}
                  </Menu.Item>
                  <Menu.Item value="delete" color={{ _light: 'red.700', _dark: 'red.300' }}>
                    <FiTrash2 aria-hidden="true" /> {AGENT_TEXT.delete}
                  </Menu.Item>
                </Menu.Content>
              </Menu.Positioner>
            </Portal>
          </Menu.Root>
        </Table.Cell>
      </Table.Row>
    ));
  }

  return (
    <Stack gap="6" pb="20">
      <Heading as="h1" size="2xl">
        Agents
      </Heading>
      <SearchInput placeholder={AGENT_TEXT.search} value={query} onChange={setQuery} />
      <Table.ScrollArea borderWidth="1px" rounded="md">
        <Table.Root size="sm" aria-busy={agents.isPending} aria-label="Agents">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader w="24">Chat</Table.ColumnHeader>
              <Table.ColumnHeader>Name</Table.ColumnHeader>
              <Table.ColumnHeader>Description</Table.ColumnHeader>
              <Table.ColumnHeader w="28">Tools</Table.ColumnHeader>
              <Table.ColumnHeader w="20" textAlign="end">
                Actions
              </Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>{body}</Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      <Box position="fixed" bottom={{ base: '4', md: '8' }} right={{ base: '4', md: '8' }} zIndex="docked">
        <Button asChild colorPalette="brand" size="lg" shadow="lg">
          <Link to="/agents/create">
            <FiPlus aria-hidden="true" /> {AGENT_TEXT.createNew}
          </Link>
        </Button>
      </Box>
      <AgentToolsDialog agent={toolsOf} onClose={() => setToolsOf(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete agent"
        message={`Delete the agent "${deleting?.name ?? ''}"? This cannot be undone.`}
        confirmLabel={AGENT_TEXT.delete}
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ path: { agent_id: deleting.id } })}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}

function StateRow({ children }: { children: React.ReactNode }) {
  return (
    <Table.Row>
      <Table.Cell colSpan={5}>
        <Center minH="40" color="fg.muted">
          {children}
        </Center>
      </Table.Cell>
    </Table.Row>
  );
}
