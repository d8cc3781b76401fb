import type { UIMessageChunk } from 'ai';
import type { ToolStep } from '@cadre/contract';
import { API_WRITE_REFUSAL } from '../chat/index.ts';

/** A tool's result larger than this (as JSON) is reported cut, as a string: the thread keeps it all. */
export const STEP_RESULT_MAX_CHARS = 16_384;

function reported(output: unknown): Pick<ToolStep, 'result' | 'result_truncated'> {
  const json = JSON.stringify(output) ?? 'null';
  if (json.length <= STEP_RESULT_MAX_CHARS) return { result: output ?? null, result_truncated: false };
  return { result: `${json.slice(0, STEP_RESULT_MAX_CHARS)}…`, result_truncated: true };
}

/**
 * The agent's tool steps as a run's chunks tell them, for callers from code (docs/api.md, "Tool
 * steps"): each call with its name as the person sees it in Cadre, its arguments, and how it went.
 * `read` answers the step a chunk changed (to report it at once), undefined for other chunks.
 */
export function toolSteps() {
  const steps = new Map<string, ToolStep>();
  const update = (id: string, change: Partial<ToolStep>) => {
    const step = steps.get(id);
    if (!step) return undefined;
    Object.assign(step, change);
    return step;
  };
  return {
    all: () => [...steps.values()],
    nameOf: (id: string) => steps.get(id)?.name,
    read(chunk: UIMessageChunk): ToolStep | undefined {
      switch (chunk.type) {
        case 'tool-input-available': {
          const step: ToolStep = {
            id: chunk.toolCallId,
            name: chunk.toolName,
            title: chunk.title ?? chunk.toolName,
            arguments: chunk.input ?? {},
            status: 'running',
          };
          steps.set(step.id, step);
          return step;
        }
        case 'tool-approval-request':
          return update(chunk.toolCallId, { status: 'awaiting_approval' });
        case 'tool-output-available':
          return update(chunk.toolCallId, { status: 'done', ...reported(chunk.output) });
        case 'tool-output-error':
          return update(chunk.toolCallId, {
            status: chunk.errorText === API_WRITE_REFUSAL ? 'refused' : 'failed',
            error: chunk.errorText,
          });
        case 'tool-output-denied':
          return update(chunk.toolCallId, { status: 'denied' });
        default:
          return undefined;
      }
    },
  };
}
