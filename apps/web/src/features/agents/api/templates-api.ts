/**
 * The agent templates (GET /api/v1/agent-templates/): the server's one list, read by the Info
 * page's example agents and the Agents screen's gallery, and the one-call create from a template.
 */
import { idempotencyHeaders } from '@cadre/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  createAgentFromTemplateMutation,
  listAgentTemplatesOptions,
} from '../../../client/@tanstack/react-query.gen';
import type { ListAgentTemplatesResponse } from '../../../client/types.gen';
import { toaster } from '../../../components/ui/toaster';
import { AGENT_TOASTS } from '../constants';

export type AgentTemplate = ListAgentTemplatesResponse['templates'][number];

/** The list changes only with a new server release. */
export const useAgentTemplates = () => useQuery({ ...listAgentTemplatesOptions(), staleTime: Infinity });

/**
 * Creates an agent from a template and opens its chat. Each press sends a key of its own, so a
 * request the network retries makes one agent; `starting` is the template being created.
 */
export function useStartFromTemplate() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    ...createAgentFromTemplateMutation(),
    onSuccess: async ({ agent }) => {
      // The template connected services and made an agent: every list may have changed.
      await queryClient.invalidateQueries();
      await navigate({ to: '/agents/$Id/chat/{-$threadId}', params: { Id: String(agent.id) } });
    },
    onError: () => toaster.create(AGENT_TOASTS.createFailed),
  });
  const start = (templateId: string) =>
    create.mutate({
      path: { template_id: templateId },
      headers: idempotencyHeaders(),
    });
  // Pending lasts until onSuccess has navigated, so this is the template until the chat opens.
  const starting = create.isPending ? create.variables.path.template_id : null;
  return { start, starting, pending: create.isPending };
}
