import type { Agent, AgentTool, AgentWrite } from './api/agents-api';
import { AGENT_TEXT } from './constants';

/**
 * The copy a Duplicate creates (spec section 5): same description and tools, no guidelines. The
 * original's id goes along for the audit log.
 */
export function duplicateBody(agent: Agent): AgentWrite {
  return {
    name: AGENT_TEXT.copyName(agent.name),
    description: agent.description,
    guidelines: null,
    tool_ids: agent.tools.map((tool) => tool.id),
    duplicated_from: agent.id,
  };
}

export interface AgentDraft {
  name: string;
  description: string;
  guidelines: string;
  tools: AgentTool[];
}

/**
 * The body a Save sends, or null when the name or description is blank (spec section 5). Blank
 * guidelines are sent as null.
 */
export function draftToBody(draft: AgentDraft): AgentWrite | null {
  const name = draft.name.trim();
  const description = draft.description.trim();
  if (!name || !description) return null;
  return {
    name,
    description,
    guidelines: draft.guidelines.trim() ? draft.guidelines : null,
    tool_ids: draft.tools.map((tool) => tool.id),
  };
}

/** Adds a tool unless it is already selected; returns the same list when nothing changed. */
export function addTool(tools: AgentTool[], tool: AgentTool): AgentTool[] {
  return tools.some((t) => t.id === tool.id) ? tools : [...tools, tool];
}

export function removeTool(tools: AgentTool[], toolId: number): AgentTool[] {
  return tools.filter((t) => t.id !== toolId);
}

/** The selected tools grouped by app name, groups and tools in alphabetical order. */
export function groupToolsByApp(tools: AgentTool[]): { app: string; tools: AgentTool[] }[] {
  const groups = new Map<string, AgentTool[]>();
  for (const tool of tools) {
    const app = tool.app_name || 'Other';
    groups.set(app, [...(groups.get(app) ?? []), tool]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([app, list]) => ({
      app,
      tools: [...list].sort((a, b) => a.display_name.localeCompare(b.display_name)),
    }));
}

export function draftOf(agent: Agent | undefined): AgentDraft {
  return {
    name: agent?.name ?? '',
    description: agent?.description ?? '',
    guidelines: agent?.guidelines ?? '',
    tools: agent?.tools ?? [],
  };
}

export function isDirty(initial: AgentDraft, current: AgentDraft): boolean {
  return (
    initial.name !== current.name ||
    initial.description !== current.description ||
    initial.guidelines !== current.guidelines ||
    initial.tools.map((t) => t.id).join(',') !== current.tools.map((t) => t.id).join(',')
  );
}
