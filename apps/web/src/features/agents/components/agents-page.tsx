import {
  Box,
  Button,
  Center,
  HStack,
  IconButton,
  Link as ChakraLink,
  Menu,
  Portal,
  Spinner,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { AgentAvatar } from '@cadre/ui';
import {
  FiAlertTriangle,
  FiCopy,
  FiDownload,
  FiEdit2,
  FiMessageSquare,
  FiMoreVertical,
  FiPlus,
  FiTrash2,
} from 'react-icons/fi';
import { PageHeader } from '../../../components/page-header';
import { SearchInput } from '../../../components/search-input';
import { toaster } from '../../../components/ui/toaster';
import { useFuzzyFilter } from '../../../lib/fuzzy';
import {
  createAgentMutation,
  deleteAgentMutation,
  downloadAgentExport,
  agentPagesOptions,
  forgetAgent,
  refreshAgents,
  type Agent,
} from '../api/agents-api';
import { duplicateBody } from '../agents-logic';
import { AGENT_SEARCH_KEYS, AGENT_TEXT, AGENT_TOASTS, EXCHANGE_TEXT } from '../constants';
import { AgentImport } from './agent-import';
import { AgentToolsDialog } from './agent-tools-dialog';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { CARD_CELL, CARD_ROW, CardTable, type CardColumn } from '../../../components/card-table';
import { usePageInfiniteQuery } from '../../../lib/page-query';
import { LoadMore, useRestLoadedWhile } from '../../../components/load-more';

const NAME_CELL = { gridArea: 'name', fontWeight: 'medium' } as const;
/** Two lines of the description on a card, one truncated line in the table (the width left over). */
const DESCRIPTION_CELL = {
  gridArea: 'desc',
  color: 'fg.muted',
  truncate: { base: false, lg: true },
  lineClamp: { base: 2, lg: 'none' },
} as const;

const COLUMNS: readonly CardColumn[] = [
  { label: 'Chat', w: '24' },
  { label: 'Name', w: '28%' },
  { label: 'Description' },
  { label: 'Tools', w: '44' },
  { label: 'Actions', w: '20', textAlign: 'end' },
];

/** The agent list (spec section 2). */
export function AgentsPage() {
  const agents = usePageInfiniteQuery(agentPagesOptions());
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  // The search matches in the browser, over the agents loaded, and the API has no search of its
  // own: someone searching expects every agent of theirs to be searched, not the first pages, so a
  // search loads the remaining pages (one after another, shown as loading at the list's end).
  const restLoading = useRestLoadedWhile(query.trim() !== '', agents);
  const [toolsOf, setToolsOf] = useState<Agent | null>(null);
  const [deleting, setDeleting] = useState<Agent | null>(null);
  const shown = useFuzzyFilter(agents.data, query, AGENT_SEARCH_KEYS);

  const duplicate = useMutation({
    ...createAgentMutation(),
    onSuccess: () => toaster.create(AGENT_TOASTS.created),
    onError: () => toaster.create(AGENT_TOASTS.createFailed),
    onSettled: () => refreshAgents(queryClient),
  });
  const exportAgent = useMutation({
    mutationFn: downloadAgentExport,
    onError: () => toaster.create(AGENT_TOASTS.exportFailed),
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
  // Nothing matching among the pages loaded yet is not "No agents found." while the rest comes.
  if (agents.isPending || (restLoading && shown.length === 0)) {
    body = (
      <StateRow>
        <Spinner size="sm" color="brand.fg" me="2" />
        {AGENT_TEXT.loading}
      </StateRow>
    );
  } else if (agents.isError && !agents.isFetchNextPageError) {
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
    body = shown.map((agent) => {
      const stale = [...new Set(agent.tools.filter((t) => t.needs_reconnecting).map((t) => t.app_name))];
      return (
        <Table.Row
          key={agent.id}
          {...CARD_ROW}
          data-testid="agent-row"
          // A card on a phone: name and menu, the description, then Start and the tools.
          gridTemplateColumns="minmax(0, 1fr) auto"
          gridTemplateAreas={`"name menu" "desc desc" "tools tools" "start start"`}
        >
          <Table.Cell {...CARD_CELL} gridArea="start">
            <Button
              size="xs"
              colorPalette="brand"
              w={{ base: 'full', lg: 'auto' }}
              onClick={() =>
                void navigate({ to: '/agents/$Id/chat/{-$threadId}', params: { Id: String(agent.id) } })
              }
              aria-label={`${AGENT_TEXT.start} chat with ${agent.name}`}
            >
              <FiMessageSquare aria-hidden="true" /> {AGENT_TEXT.start}
            </Button>
          </Table.Cell>
          <Table.Cell {...CARD_CELL} {...NAME_CELL} title={agent.name}>
            <HStack gap="2" minW="0">
              <AgentAvatar agent={agent} size="sm" />
              <Text truncate>{agent.name}</Text>
            </HStack>
          </Table.Cell>
          <Table.Cell {...CARD_CELL} {...DESCRIPTION_CELL} title={agent.description}>
            {agent.description}
          </Table.Cell>
          <Table.Cell {...CARD_CELL} gridArea="tools">
            <HStack gap="2" wrap="wrap">
              <Button
                size="xs"
                variant="outline"
                onClick={() => setToolsOf(agent)}
                aria-label={`${AGENT_TEXT.toolsButton(agent.tools.length)} of ${agent.name}`}
              >
                {AGENT_TEXT.toolsButton(agent.tools.length)}
              </Button>
              {stale.length > 0 && (
                <ChakraLink
                  asChild
                  fontSize="xs"
                  whiteSpace="nowrap"
                  // A touch target of at least 24 px (WCAG 2.2 target size).
                  minH="6"
                  color={{ _light: 'orange.700', _dark: 'orange.300' }}
                  aria-label={`${AGENT_TEXT.needsReconnecting}: ${AGENT_TEXT.reconnect(stale.join(', '))}`}
                  title={AGENT_TEXT.reconnect(stale.join(', '))}
                >
                  <Link to="/services">
                    <FiAlertTriangle aria-hidden="true" /> {AGENT_TEXT.needsReconnecting}
                  </Link>
                </ChakraLink>
              )}
            </HStack>
          </Table.Cell>
          <Table.Cell {...CARD_CELL} gridArea="menu" textAlign="end">
            <Menu.Root
              onSelect={(details) => {
                if (details.value === 'edit')
                  void navigate({ to: '/agents/$Id/edit', params: { Id: String(agent.id) } });
                if (details.value === 'duplicate') duplicate.mutate({ body: duplicateBody(agent) });
                if (details.value === 'export') exportAgent.mutate(agent);
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
                    <Menu.Item value="export" disabled={exportAgent.isPending}>
                      <FiDownload aria-hidden="true" /> {EXCHANGE_TEXT.export}
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
      );
    });
  }

  return (
    <Stack gap="6" pb="20">
      <PageHeader title="Agents">
        <AgentImport />
      </PageHeader>
      <SearchInput placeholder={AGENT_TEXT.search} value={query} onChange={setQuery} />
      {/* On a phone the rows are stacked cards; the roles keep it a table for assistive technology. */}
      <CardTable label="Agents" busy={agents.isPending} columns={COLUMNS}>
        {body}
      </CardTable>
      {agents.data && <LoadMore query={agents} noun="agents" />}
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
    <Table.Row role="row" display={{ base: 'block', lg: 'table-row' }}>
      <Table.Cell role="cell" colSpan={5} display={{ base: 'block', lg: 'table-cell' }}>
        <Center minH="40" color="fg.muted">
          {children}
        </Center>
      </Table.Cell>
    </Table.Row>
  );
}
