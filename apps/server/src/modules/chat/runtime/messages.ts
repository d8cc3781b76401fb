import { createHash } from 'node:crypto';
import type { ChatApprovalDescriptor } from '@cadre/contract';
import type { ModelMessage } from 'ai';

/**
 * Stored messages use the AI SDK's UI message part shapes, so `GET .../messages` can hand them to
 * `useChat` as they are: `text`, `step-start` and `dynamic-tool` parts. `toolMetadata` carries what
 * the frame shows besides the call itself: the action id, its effect, the duration and the approval.
 */
export type ToolPartState =
  'input-available' | 'approval-requested' | 'output-available' | 'output-error' | 'output-denied';

export interface ToolPart {
  type: 'dynamic-tool';
  toolCallId: string;
  toolName: string;
  title?: string;
  state: ToolPartState;
  input: unknown;
  output?: unknown;
  errorText?: string;
  approval?: { id: string; approved?: boolean; reason?: string; descriptor?: ChatApprovalDescriptor };
  toolMetadata: {
    actionId: number | null;
    effect: string | null;
    durationMs?: number;
    startedAt?: string;
  };
}

/** Why a run ended badly; the frame picks its error state (and retry) from `category`. */
export interface ErrorPart {
  type: 'data-error';
  data: { category: string; message: string };
}

/** Something the person should know about the answer (it came from another model than the agent's). */
export interface NoticePart {
  type: 'data-notice';
  data: { message: string };
}

export type StoredPart =
  { type: 'text'; text: string } | { type: 'step-start' } | ToolPart | ErrorPart | NoticePart;

export type MessageStatus = 'streaming' | 'complete' | 'interrupted' | 'error' | 'awaiting_approval';

export interface StoredMessage {
  id: string;
  role: 'user' | 'assistant';
  parts: StoredPart[];
  status: MessageStatus;
  createdAt: string;
  /** The model that wrote an answer, where known. */
  model?: string | null;
  /** That model's display name while it is still offered: looked up when read, never stored. */
  modelName?: string;
}

/** JSON with object keys sorted at every level: the same arguments always give the same text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export const argsHash = (args: unknown) => createHash('sha256').update(canonicalJson(args)).digest('hex');

const NOT_RUN = 'The tool was not run: the turn ended before it could run.';

/**
 * Builds the model's view of a thread from stored messages (the server's copy is the only source of
 * truth; the client never supplies history). Each `step-start` opens a new assistant message; tool
 * calls are followed by a tool message with their results, so providers always see a result for
 * every call (pending or interrupted calls are reported as not run).
 */
export function toModelMessages(messages: StoredMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      const text = message.parts
        .filter((p): p is { type: 'text'; text: string } => p.type === 'text')
        .map((p) => p.text)
        .join('\n');
      if (text.trim()) out.push({ role: 'user', content: [{ type: 'text', text }] });
      continue;
    }
    const steps: StoredPart[][] = [[]];
    for (const part of message.parts) {
      if (part.type === 'step-start') {
        if (steps.at(-1)!.length > 0) steps.push([]);
      } else {
        steps.at(-1)!.push(part);
      }
    }
    for (const step of steps) {
      const content: Exclude<ModelMessage, { role: 'system' | 'user' | 'tool' }>['content'] & unknown[] = [];
      const results: Extract<ModelMessage, { role: 'tool' }>['content'] = [];
      for (const part of step) {
        if (part.type === 'text') {
          if (part.text) content.push({ type: 'text', text: part.text });
        } else if (part.type === 'dynamic-tool') {
          content.push({
            type: 'tool-call',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.input ?? {},
          });
          results.push({
            type: 'tool-result',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            output: toolOutput(part),
          });
        }
      }
      if (content.length > 0) out.push({ role: 'assistant', content });
      if (results.length > 0) out.push({ role: 'tool', content: results });
    }
  }
  return out;
}

function toolOutput(part: ToolPart) {
  switch (part.state) {
    case 'output-available':
      return { type: 'json' as const, value: (part.output ?? null) as never };
    case 'output-error':
      return { type: 'error-text' as const, value: part.errorText ?? 'The tool failed.' };
    case 'output-denied':
      return {
        type: 'execution-denied' as const,
        reason: part.approval?.reason ?? 'The user denied this action.',
      };
    default:
      return { type: 'error-text' as const, value: NOT_RUN };
  }
}
