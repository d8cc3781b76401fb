import { Box, Button, Grid, Heading, HStack, Skeleton, Stack } from '@chakra-ui/react';
import { roleCan } from '@cadre/contract';
import { AgentAvatar } from '@cadre/ui';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { ApiError } from '../../../api/api-error';
import { LoadError } from '../../../components/load-error';
import { usePageQuery } from '../../../lib/page-query';
import { useMe } from '../../../lib/role';
import { agentOptions } from '../api/agents-api';
import { AgentEmbed } from './agent-embed';
import { AgentFiles } from './agent-files';
import { AgentForm, type AgentLookDraft, type ToolPicker } from './agent-form';
import { AgentHistory } from './agent-history';
import { AgentTriggers } from './agent-triggers';
import { ToolPermissions } from './tool-permissions';
import { EditorNav } from './editor-nav';
import type { EditorSection } from '../editor-sections';

/**
 * The agent form: create mode without an id, update mode with one (spec section 4). An agent that
 * exists is edited in sections (`section`, from the URL; Configure when absent).
 */
export function AgentFormPage({
  agentId,
  toolPicker,
  section = 'configure',
}: {
  agentId?: number;
  toolPicker: ToolPicker;
  section?: EditorSection;
}) {
  const role = useMe().data?.role;
  // Reached by a typed or old link: say why instead of a form the server would refuse to save.
  if (role !== undefined && !roleCan(role, 'build_agents')) return <CannotBuild role={role} />;
  if (agentId === undefined) return <AgentForm toolPicker={toolPicker} />;
  return <EditAgent agentId={agentId} toolPicker={toolPicker} section={section} />;
}

function CannotBuild({ role }: { role: string }) {
  return (
    <Stack gap="6">
      <Heading as="h1" size="2xl">
        Agents
      </Heading>
      <LoadError
        status="warning"
        title="Creating or changing agents needs the builder or admin role."
        description={`This account is a ${role}. Ask an admin of this workspace for the builder role.`}
      >
        <Button variant="outline" asChild>
          <Link to="/agents">Back to agents</Link>
        </Button>
      </LoadError>
    </Stack>
  );
}

function EditAgent({
  agentId,
  toolPicker,
  section,
}: {
  agentId: number;
  toolPicker: ToolPicker;
  section: EditorSection;
}) {
  const agent = usePageQuery(agentOptions(agentId));
  // A restore replaces what the form holds: a new key starts it again from the restored agent.
  const [restores, setRestores] = useState(0);
  // The icon and colour as the form holds them, previewed beside the heading.
  const [look, setLook] = useState<AgentLookDraft | null>(null);
  if (agent.isPending) {
    return (
      <Stack gap="6" role="status" aria-busy="true" aria-label="Loading agent">
        <Skeleton height="10" width="64" />
        <Grid templateColumns={{ base: '1fr', lg: '2fr 1fr' }} gap="8">
          <Stack gap="5">
            <Skeleton height="16" />
            <Skeleton height="24" />
            <Skeleton height="32" />
          </Stack>
          <Skeleton height="48" />
        </Grid>
      </Stack>
    );
  }
  if (agent.isError) {
    const missing = agent.error instanceof ApiError && agent.error.code === 'not_found';
    return (
      <Stack gap="6">
        <Heading as="h1" size="2xl">
          {missing ? 'Agent not found' : 'Edit agent'}
        </Heading>
        <LoadError
          status={missing ? 'warning' : 'error'}
          title={missing ? 'This agent does not exist.' : 'Error loading the agent.'}
          description={
            missing
              ? 'It may have been deleted, or the link is wrong.'
              : 'The agent could not be loaded. Try again in a moment.'
          }
          onRetry={missing ? undefined : () => void agent.refetch()}
          retrying={agent.isFetching}
        >
          <Button variant="outline" asChild>
            <Link to="/agents">Back to agents</Link>
          </Button>
        </LoadError>
      </Stack>
    );
  }
  // Every section stays mounted while another is shown: what the form holds is kept, unsaved.
  const shown = (id: EditorSection, content: ReactNode) => (
    <Box display={section === id ? undefined : 'none'} data-section={id}>
      {content}
    </Box>
  );
  return (
    <Stack gap="6">
      <HStack gap="3">
        <AgentAvatar agent={{ ...agent.data, ...look }} size="lg" />
        <Heading as="h1" size="2xl">
          {`Edit ${agent.data.name}`}
        </Heading>
      </HStack>
      <Grid
        templateColumns={{ base: 'minmax(0, 1fr)', lg: '10rem minmax(0, 1fr)' }}
        gap={{ base: '4', lg: '8' }}
      >
        <EditorNav agentId={agentId} current={section} />
        <Box minW="0">
          {shown(
            'configure',
            <Stack gap="10">
              <AgentForm
                key={`${agent.data.id}-${restores}`}
                agent={agent.data}
                toolPicker={toolPicker}
                onLookChange={setLook}
              />
              <ToolPermissions agentId={agentId} />
            </Stack>,
          )}
          {shown('knowledge', <AgentFiles agentId={agentId} />)}
          {shown('publish', <AgentEmbed agent={agent.data} />)}
          {shown('triggers', <AgentTriggers agentId={agentId} />)}
          {shown('history', <AgentHistory agentId={agentId} onRestored={() => setRestores((n) => n + 1)} />)}
        </Box>
      </Grid>
    </Stack>
  );
}
