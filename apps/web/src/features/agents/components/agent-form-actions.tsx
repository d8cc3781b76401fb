import { Button, HStack } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { FiDownload } from 'react-icons/fi';
import { toaster } from '../../../components/ui/toaster';
import { downloadAgentExport, type Agent } from '../api/agents-api';
import { AGENT_TEXT, AGENT_TOASTS, EXCHANGE_TEXT } from '../constants';

/** Under the agent form: Save, Cancel, and for an agent that exists, Export. */
export function AgentFormActions({ agent, saving }: { agent?: Agent; saving: boolean }) {
  const exportAgent = useMutation({
    mutationFn: downloadAgentExport,
    onError: () => toaster.create(AGENT_TOASTS.exportFailed),
  });
  return (
    <HStack gap="3" pt="2">
      <Button type="submit" colorPalette="brand" loading={saving}>
        {AGENT_TEXT.save}
      </Button>
      <Button variant="outline" asChild>
        <Link to="/agents">{AGENT_TEXT.cancel}</Link>
      </Button>
      {agent && (
        <Button
          variant="ghost"
          ms="auto"
          loading={exportAgent.isPending}
          onClick={() => exportAgent.mutate(agent)}
          aria-label={EXCHANGE_TEXT.exportLabel(agent.name)}
        >
          <FiDownload aria-hidden="true" /> {EXCHANGE_TEXT.export}
        </Button>
      )}
    </HStack>
  );
}
