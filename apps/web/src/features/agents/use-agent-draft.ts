import { useState } from 'react';
import { toaster } from '../../components/ui/toaster';
import { useFieldErrors } from '../../lib/use-field-errors';
import type { DraftTool, Agent } from './api/agents-api';
import { addTool, AGENT_FIELDS, draftOf, isDirty, removeTool, type AgentDraft } from './agents-logic';
import { AGENT_TOASTS } from './constants';

type TextChange = { target: { value: string } };

/**
 * What the agent form holds: the draft (the agent's, or a blank one), whether it differs from what
 * the form opened with, and the fields a Save refused (`fieldErrors`: the required ones left blank
 * and the server's 422 issues, each cleared as its field is edited; the starters the server refused
 * apart, cleared as soon as any is edited).
 */
export function useAgentDraft(agent: Agent | undefined) {
  const [initial] = useState(() => draftOf(agent));
  const [draft, setDraft] = useState<AgentDraft>(initial);
  const fieldErrors = useFieldErrors<(typeof AGENT_FIELDS)[number], HTMLFormElement>(AGENT_FIELDS);
  const [serverStarterErrors, setServerStarterErrors] = useState<Record<string, string>>({});

  const update = (change: Partial<AgentDraft> | ((current: AgentDraft) => Partial<AgentDraft>)) =>
    setDraft((current) => ({ ...current, ...(typeof change === 'function' ? change(current) : change) }));

  const setText = (field: 'name' | 'description' | 'guidelines') => (event: TextChange) => {
    const { value } = event.target;
    setDraft((current) => ({ ...current, [field]: value }));
    fieldErrors.clear(field);
  };

  const setStarter = (index: number) => (event: TextChange) => {
    setServerStarterErrors({});
    setDraft((current) => ({
      ...current,
      starters: current.starters.map((s, i) => (i === index ? event.target.value : s)),
    }));
  };

  const onAddTool = (tool: DraftTool) => {
    setDraft((current) => {
      const tools = addTool(current.tools, tool);
      return tools === current.tools ? current : { ...current, tools };
    });
    if (!draft.tools.some((t) => t.id === tool.id)) {
      toaster.create(AGENT_TOASTS.actionAdded(tool.display_name));
    }
  };

  const onRemoveTool = (toolId: number) =>
    setDraft((current) => ({ ...current, tools: removeTool(current.tools, toolId) }));

  return {
    draft,
    dirty: isDirty(initial, draft),
    fieldErrors,
    serverStarterErrors,
    setServerStarterErrors,
    update,
    setText,
    setStarter,
    onAddTool,
    onRemoveTool,
  };
}

export type AgentDraftState = ReturnType<typeof useAgentDraft>;
