import { Box, Button, Center, Heading, Spinner, Stack, Table, Text } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { FiPlus } from 'react-icons/fi';
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
import { AGENT_SEARCH_KEYS, AGENT_TEXT, AGENT_TOASTS, TEMPLATE_TEXT } from '../constants';
import { AgentImport } from './agent-import';
import { AgentRow } from './agent-row';
import { AgentToolsDialog } from './agent-tools-dialog';
import { TemplateGallery } from './template-gallery';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { CardTable, type CardColumn } from '../../../components/card-table';
import { usePageInfiniteQuery } from '../../../lib/page-query';
import { LoadMore, useRestLoadedWhile } from '../../../components/load-more';
import { useCan } from '../../../lib/role';

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
  const canBuild = useCan('build_agents');
  const queryClient = useQueryClient();
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
          <Text>{canBuild ? AGENT_TEXT.empty : AGENT_TEXT.emptyForMember}</Text>
          {canBuild && (
            <Button asChild variant="outline" size="sm">
              <Link to="/agents/create">{AGENT_TEXT.createFirst}</Link>
            </Button>
          )}
        </Stack>
      </StateRow>
    );
  } else {
    body = shown.map((agent) => (
      <AgentRow
        key={agent.id}
        agent={agent}
        onShowTools={() => setToolsOf(agent)}
        onDuplicate={() => duplicate.mutate({ body: duplicateBody(agent) })}
        onExport={() => exportAgent.mutate(agent)}
        onDelete={() => setDeleting(agent)}
        canBuild={canBuild}
        duplicating={duplicate.isPending}
        exporting={exportAgent.isPending}
      />
    ));
  }

  return (
    <Stack gap="6" pb="20">
      <PageHeader title="Agents">{canBuild && <AgentImport />}</PageHeader>
      <SearchInput placeholder={AGENT_TEXT.search} value={query} onChange={setQuery} />
      {/* On a phone the rows are stacked cards; the roles keep it a table for assistive technology. */}
      <CardTable label="Agents" busy={agents.isPending} columns={COLUMNS}>
        {body}
      </CardTable>
      {agents.data && <LoadMore query={agents} noun="agents" />}
      {/* A member builds nothing: no templates, import or New agent (the server would refuse them). */}
      {canBuild && (
        <>
          <Stack as="section" aria-labelledby="templates-heading" gap="3">
            <Heading as="h2" size="lg" id="templates-heading">
              {TEMPLATE_TEXT.galleryTitle}
            </Heading>
            <TemplateGallery />
          </Stack>
          <Box
            position="fixed"
            bottom={{ base: '4', md: '8' }}
            right={{ base: '4', md: '8' }}
            zIndex="docked"
          >
            <Button asChild colorPalette="brand" size="lg" shadow="lg">
              <Link to="/agents/create">
                <FiPlus aria-hidden="true" /> {AGENT_TEXT.createNew}
              </Link>
            </Button>
          </Box>
        </>
      )}
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
