import { Button, Grid, Heading, Skeleton, Stack } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { ApiError } from '../../../api/api-error';
import { LoadError } from '../../../components/load-error';
import { usePageQuery } from '../../../lib/page-query';
import { agentOptions } from '../api/agents-api';
import { AgentEmbed } from './agent-embed';
import { AgentFiles } from './agent-files';
import { AgentForm, type ToolPicker } from './agent-form';
import { AgentHistory } from './agent-history';
import { AgentTriggers } from './agent-triggers';
import { ToolPermissions } from './tool-permissions';

/** The agent form: create mode without an id, update mode with one (spec section 4). */
export function AgentFormPage({ agentId, toolPicker }: { agentId?: number; toolPicker: ToolPicker }) {
  if (agentId === undefined) return <AgentForm toolPicker={toolPicker} />;
  return <EditAgent agentId={agentId} toolPicker={toolPicker} />;
}

function EditAgent({ agentId, toolPicker }: { agentId: number; toolPicker: ToolPicker }) {
  const agent = usePageQuery(agentOptions(agentId));
  // A restore replaces what the form holds: a new key starts it again from the restored agent.
  const [restores, setRestores] = useState(0);
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
  return (
    <Stack gap="10">
      <AgentForm key={`${agent.data.id}-${restores}`} agent={agent.data} toolPicker={toolPicker} />
      <ToolPermissions agentId={agentId} />
      <AgentFiles agentId={agentId} />
      <AgentEmbed agent={agent.data} />
      <AgentTriggers agentId={agentId} />
      <AgentHistory agentId={agentId} onRestored={() => setRestores((n) => n + 1)} />
    </Stack>
  );
}
