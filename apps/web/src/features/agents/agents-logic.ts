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
    starters: agent.starters,
    tool_ids: agent.tools.map((tool) => tool.id),
    duplicated_from: agent.id,
  };
}

export interface AgentDraft {
  name: string;
  description: string;
  guidelines: string;
  /** Always four inputs; blank ones are left out of the body. */
  starters: string[];
  tools: AgentTool[];
}

export const MAX_STARTERS = 4;
export const MAX_STARTER_LENGTH = 120;

/** What is wrong with a starter before it is sent, or undefined when it is fine. */
export function starterError(text: string): string | undefined {
  return text.trim().length > MAX_STARTER_LENGTH
    ? `A starter must be at most ${MAX_STARTER_LENGTH} characters.`
    : undefined;
}

/** The server's 422 messages for `starters` (the list or the n-th input), keyed 'all' or index. */
export function starterErrorsFrom(body: unknown): Record<string, string> {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (!Array.isArray(detail)) return {};
  const errors: Record<string, string> = {};
  for (const item of detail as { loc?: unknown[]; msg?: string }[]) {
    if (item.loc?.[1] !== 'starters') continue;
    const index = item.loc[2];
    errors[typeof index === 'number' ? String(index) : 'all'] = `Starter ${item.msg ?? 'is invalid'}`;
  }
  return errors;
}

/**
 * The body a Save sends, or null when the name or description is blank (spec section 5). Blank
 * guidelines are sent as null, blank starters left out.
 */
export function draftToBody(draft: AgentDraft): AgentWrite | null {
  const name = draft.name.trim();
  const description = draft.description.trim();
  if (!name || !description) return null;
  return {
    name,
    description,
    guidelines: draft.guidelines.trim() ? draft.guidelines : null,
    starters: draft.starters.map((s) => s.trim()).filter(Boolean),
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
    starters: Array.from({ length: MAX_STARTERS }, (_, i) => agent?.starters?.[i] ?? ''),
    tools: agent?.tools ?? [],
  };
}

export function isDirty(initial: AgentDraft, current: AgentDraft): boolean {
  return (
    initial.name !== current.name ||
    initial.description !== current.description ||
    initial.guidelines !== current.guidelines ||
    initial.starters.join('\n') !== current.starters.join('\n') ||
    initial.tools.map((t) => t.id).join(',') !== current.tools.map((t) => t.id).join(',')
  );
}
