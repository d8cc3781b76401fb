import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useBlocker, useNavigate } from '@tanstack/react-router';
import { useRef, type FormEvent } from 'react';
import { ApiError } from '../../api/api-error';
import { toaster } from '../../components/ui/toaster';
import { refreshAgents, saveAgent, type Agent } from './api/agents-api';
import { blankFields, draftToBody, starterError, starterErrorsFrom, temperatureError } from './agents-logic';
import { AGENT_TEXT, AGENT_TOASTS } from './constants';
import type { AgentDraftState } from './use-agent-draft';

/**
 * Saving the agent form: a Save that finds a field wrong (here or at the server: a 422) marks it
 * and moves focus to the first one marked; a saved agent goes back to the list. Until then,
 * leaving the page with changes asks first (`blocker`).
 */
export function useAgentSave(
  agent: Agent | undefined,
  { draft, dirty, fieldErrors, setServerStarterErrors }: AgentDraftState,
) {
  const { focusFirstInvalid } = fieldErrors;
  const mode = agent ? 'Update' : 'Create';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Set on a successful save so that leaving for /agents is not treated as losing changes.
  const saved = useRef(false);

  const blocker = useBlocker({
    // Another section of the editor is the same page: the form stays as it is.
    shouldBlockFn: ({ current, next }) => !saved.current && dirty && current.pathname !== next.pathname,
    enableBeforeUnload: () => !saved.current && dirty,
    withResolver: true,
  });

  const save = useMutation({
    mutationFn: (body: NonNullable<ReturnType<typeof draftToBody>>) => saveAgent(body, agent?.id),
    onSuccess: async () => {
      saved.current = true;
      toaster.create(AGENT_TOASTS.saved(mode));
      await refreshAgents(queryClient, agent?.id);
      await navigate({ to: '/agents' });
    },
    onError: (error) => {
      // A refusal naming fields is shown under them (the rest above Save), never only in a toast.
      if (error instanceof ApiError && error.code === 'validation_failed') {
        setServerStarterErrors(starterErrorsFrom(error.body, draft.starters));
        fieldErrors.showApiError(error, `Failed to ${mode} agent.`);
        focusFirstInvalid();
        return;
      }
      toaster.create(AGENT_TOASTS.saveFailed(mode));
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = draftToBody(draft);
    if (!body) {
      const blank = blankFields(draft);
      fieldErrors.mark({
        name: blank.includes('name') ? AGENT_TEXT.nameRequired : undefined,
        description: blank.includes('description') ? AGENT_TEXT.descriptionRequired : undefined,
      });
      toaster.create(AGENT_TOASTS.required);
      return;
    }
    // A starter that is too long, or a temperature out of range, shows its error under its input
    // as it is typed; nothing is sent.
    if (draft.starters.some((s) => starterError(s)) || temperatureError(draft.temperature)) {
      focusFirstInvalid();
      return;
    }
    save.mutate(body);
  };

  return { mode, submit, saving: save.isPending, blocker };
}
