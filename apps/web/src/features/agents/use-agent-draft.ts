import { useState } from 'react';
import { toaster } from '../../components/ui/toaster';
import type { DraftTool, Agent } from './api/agents-api';
import { addTool, draftOf, isDirty, removeTool, type AgentDraft, type DraftField } from './agents-logic';
import { AGENT_TOASTS } from './constants';

type TextChange = { target: { value: string } };

/**
 * What the agent form holds: the draft (the agent's, or a blank one), whether it differs from what
 * the form opened with, and the fields a Save refused: the required ones left blank (each cleared
 * as it is typed in) and the starters the server refused (cleared as soon as any is edited).
 */
export function useAgentDraft(agent: Agent | undefined) {
  const [initial] = useState(() => draftOf(agent));
  const [draft, setDraft] = useState<AgentDraft>(initial);
  const [invalid, setInvalid] = useState<ReadonlySet<DraftField>>(new Set());
  const [serverStarterErrors, setServerStarterErrors] = useState<Record<string, string>>({});

  const update = (change: Partial<AgentDraft> | ((current: AgentDraft) => Partial<AgentDraft>)) =>
    setDraft((current) => ({ ...current, ...(typeof change === 'function' ? change(current) : change) }));

  const setText = (field: 'name' | 'description' | 'guidelines') => (event: TextChange) => {
    const { value } = event.target;
    setDraft((current) => ({ ...current, [field]: value }));
    if (value.trim() && invalid.has(field as DraftField))
      setInvalid((current) => new Set([...current].filter((f) => f !== field)));
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
    invalid,
    setInvalid,
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
