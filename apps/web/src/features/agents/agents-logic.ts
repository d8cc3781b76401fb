import { AGENT_LIMITS, agentCreateSchema, formRules, type ApiWrites } from '@cadre/contract';
import type { Agent, AgentColor, AgentWrite, DraftTool } from './api/agents-api';
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
    // The copy looks like its original until someone changes it.
    ...(agent.icon ? { icon: agent.icon } : {}),
    ...(agent.color ? { color: agent.color } : {}),
  };
}

export interface AgentDraft {
  name: string;
  description: string;
  guidelines: string;
  icon: string | null;
  color: AgentColor | null;
  /** Always four inputs; blank ones are left out of the body. */
  starters: string[];
  tools: DraftTool[];
  /** An offered model's id; null: the default. */
  modelId: string | null;
  /** As typed: blank is the provider's default. */
  temperature: string;
  /** What is saved: the model and temperature are sent only when they change. */
  saved: { modelId: string | null; temperature: number | null; modelAvailable: boolean };
  /** "Allow write actions in unattended runs" (off by default). */
  allowUnattendedWrites: boolean;
  /** "Write actions asked through the API or MCP" (`approve` by default). */
  apiWrites: ApiWrites;
}

/** Each field's length, range and required rule, as the server checks them (on create and update alike). */
export const AGENT_RULES = formRules(agentCreateSchema);

/** The fields of the API's body a 422 may name, shown under their inputs. */
export const AGENT_FIELDS = ['name', 'description', 'guidelines', 'model_id', 'temperature'] as const;
export type AgentField = (typeof AGENT_FIELDS)[number];

export type DraftField = 'name' | 'description';

/** The required fields left blank, in the form's order (spec section 5: blank means whitespace only). */
export function blankFields(draft: AgentDraft): DraftField[] {
  return (['name', 'description'] as const).filter((field) => !draft[field].trim());
}

/** What is wrong with a typed temperature, or undefined when it is blank or 0-2. */
export function temperatureError(text: string): string | undefined {
  if (!text.trim()) return undefined;
  const value = Number(text);
  const { min = 0, max = 2 } = AGENT_RULES.temperature;
  return Number.isFinite(value) && value >= min && value <= max
    ? undefined
    : `Temperature must be a number from ${min} to ${max}, or blank for the default.`;
}

export const MAX_STARTERS = AGENT_LIMITS.starters;
export const MAX_STARTER_LENGTH = AGENT_LIMITS.starter;

/** What is wrong with a starter before it is sent, or undefined when it is fine. */
export function starterError(text: string): string | undefined {
  return text.trim().length > MAX_STARTER_LENGTH
    ? `A starter must be at most ${MAX_STARTER_LENGTH} characters.`
    : undefined;
}

/**
 * The server's 422 messages for `starters` (the list or the n-th input), keyed 'all' or by the
 * input's index. The server numbers the starters it was sent, and blank inputs are not sent
 * (`draftToBody`), so its n-th starter is the n-th non-blank input.
 */
export function starterErrorsFrom(body: unknown, inputs: readonly string[]): Record<string, string> {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (!Array.isArray(detail)) return {};
  const sent = inputs.flatMap((text, input) => (text.trim() ? [input] : []));
  const errors: Record<string, string> = {};
  for (const item of detail as { loc?: unknown[]; msg?: string }[]) {
    if (item.loc?.[1] !== 'starters') continue;
    const index = item.loc[2];
    const key = typeof index === 'number' ? String(sent[index] ?? index) : 'all';
    errors[key] = `Starter ${item.msg ?? 'is invalid'}`;
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
    icon: draft.icon,
    color: draft.color,
    starters: draft.starters.map((s) => s.trim()).filter(Boolean),
    tool_ids: draft.tools.map((tool) => tool.id),
    allow_unattended_writes: draft.allowUnattendedWrites,
    api_writes: draft.apiWrites,
    ...modelFields(draft),
  };
}

/**
 * The model and temperature a Save sends: only what changed, so a model no longer offered that the
 * person left alone is not sent back (the server would refuse it).
 */
function modelFields(draft: AgentDraft): Pick<AgentWrite, 'model_id' | 'temperature'> {
  const temperature = draft.temperature.trim() ? Number(draft.temperature) : null;
  return {
    ...(draft.modelId !== draft.saved.modelId ? { model_id: draft.modelId } : {}),
    ...(temperature !== draft.saved.temperature ? { temperature } : {}),
  };
}

/** Adds a tool unless it is already selected; returns the same list when nothing changed. */
export function addTool(tools: DraftTool[], tool: DraftTool): DraftTool[] {
  return tools.some((t) => t.id === tool.id) ? tools : [...tools, tool];
}

export function removeTool(tools: DraftTool[], toolId: number): DraftTool[] {
  return tools.filter((t) => t.id !== toolId);
}

/** The selected tools grouped by app name, groups and tools in alphabetical order. */
export function groupToolsByApp<T extends DraftTool>(tools: T[]): { app: string; tools: T[] }[] {
  const groups = new Map<string, T[]>();
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
    icon: agent?.icon ?? null,
    color: agent?.color ?? null,
    starters: Array.from({ length: MAX_STARTERS }, (_, i) => agent?.starters?.[i] ?? ''),
    tools: agent?.tools ?? [],
    modelId: agent?.model_id ?? null,
    temperature: agent?.temperature == null ? '' : String(agent.temperature),
    saved: {
      modelId: agent?.model_id ?? null,
      temperature: agent?.temperature ?? null,
      modelAvailable: agent?.model_available ?? true,
    },
    allowUnattendedWrites: agent?.allow_unattended_writes ?? false,
    apiWrites: agent?.api_writes ?? 'approve',
  };
}

export function isDirty(initial: AgentDraft, current: AgentDraft): boolean {
  return (
    initial.name !== current.name ||
    initial.description !== current.description ||
    initial.guidelines !== current.guidelines ||
    initial.icon !== current.icon ||
    initial.color !== current.color ||
    initial.starters.join('\n') !== current.starters.join('\n') ||
    initial.modelId !== current.modelId ||
    initial.temperature.trim() !== current.temperature.trim() ||
    initial.allowUnattendedWrites !== current.allowUnattendedWrites ||
    initial.apiWrites !== current.apiWrites ||
    initial.tools.map((t) => t.id).join(',') !== current.tools.map((t) => t.id).join(',')
  );
}
