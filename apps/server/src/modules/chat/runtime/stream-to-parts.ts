import type { TextStreamPart, ToolSet, UIMessageChunk } from 'ai';
import type { AuditLog } from '../../../kernel.ts';
import { toLlmError, type LlmErrorCategory } from '../llm/errors.ts';
import { requestApproval, type ApprovalRequestContext } from './approval-request.ts';
import type { StoredPart, ToolPart } from './messages.ts';
import { toolErrorText, type RunTools } from './tool-set.ts';
import { logprobsOf } from './generation.ts';

export interface StreamContext extends ApprovalRequestContext {
  audit: AuditLog;
  messageId: string;
  /** The assistant message's parts, updated in place as the stream goes. */
  parts: StoredPart[];
  signal: AbortSignal;
  write: (chunk: UIMessageChunk) => void;
  /** Saves the message as it stands (see FIRST_SAVE_MS and SAVE_EVERY_MS; and at tool steps). */
  save: () => Promise<void>;
  /** Ends the run with a visible error. */
  fail: (category: LlmErrorCategory, text: string) => void;
}

/**
 * The first words of an answer are saved this long after they were sent (committed within 250 ms):
 * a short answer cut by a crash keeps what the person saw.
 */
export const FIRST_SAVE_MS = 200;
/** Then what streamed since is saved this long after the save before: never more often. */
export const SAVE_EVERY_MS = 500;

/**
 * Lets the chunks written so far reach the socket before more work: the response body sends a
 * tick's chunks once its promise jobs have run, and a model's burst of tokens is read in one tick.
 */
export const yieldToSocket = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface StreamResult {
  /** The finish reason of the last step ('tool-calls' when the loop guard stopped the model). */
  lastFinishReason?: string;
  pendingApprovals: string[];
  /** The answer's tokens with their log probabilities, over every step, when they were asked for. */
  logprobs: unknown[];
}

/**
 * Reads the model's full stream and does two things with each part: writes the AI SDK UI message
 * chunk the client renders, and keeps the stored parts of the assistant message in step with it.
 * Tool results and errors are audited; write/send calls become pending approvals. A failing
 * stream ends the run with a visible error (unless it was stopped); it never throws.
 */
export async function streamToParts(
  ctx: StreamContext,
  tools: RunTools,
  stream: AsyncIterable<TextStreamPart<ToolSet>>,
): Promise<StreamResult> {
  const { parts, write } = ctx;
  const result: StreamResult = { pendingApprovals: [], logprobs: [] };
  const findTool = (toolCallId: string) =>
    parts.find((p): p is ToolPart => p.type === 'dynamic-tool' && p.toolCallId === toolCallId);
  /** The audit event of a tool call's outcome, naming the run and the call. */
  const auditTool = (action: string, toolCallId: string, part: ToolPart | undefined, detail: object) =>
    ctx.audit.record({
      userId: ctx.userId,
      action,
      objectType: 'action',
      objectId: String(part?.toolMetadata.actionId ?? ''),
      detail: { threadId: ctx.threadId, runId: ctx.runId, toolCallId, ...detail },
    });
  let stepsRun = 0;
  // What streamed is saved FIRST_SAVE_MS after its first words, then SAVE_EVERY_MS after the save
  // before, and at each tool call and result, so a crash or a lost database connection loses at
  // most half a second of an answer the person saw. The timer runs apart from the stream: a model
  // or a tool that stalls is saved too, yet nothing is written while nothing changed. Saves never
  // overlap (an older snapshot must not land after a newer one), and the last one is awaited
  // before returning: the run's final save must come after it. A clock save that comes due while
  // one is being written waits behind it and then writes what streamed meanwhile: on a slow
  // database at most one waits, rather than one more every SAVE_EVERY_MS.
  let unsaved = false;
  let lastSaveAt: number | undefined;
  let saving: Promise<void> = Promise.resolve();
  /** The clock's next save: until it is written, text streamed schedules no other. */
  let saveDue: NodeJS.Timeout | undefined;
  const saveSnapshot = () => {
    unsaved = false;
    lastSaveAt = performance.now();
    return ctx.save();
  };
  const saveNow = () => {
    clearTimeout(saveDue);
    saveDue = undefined;
    saving = saving.then(saveSnapshot, saveSnapshot);
    return saving;
  };
  /** Text streamed: it is saved on the clock, not per token. */
  const saveSoon = () => {
    unsaved = true;
    if (saveDue) return;
    const wait =
      lastSaveAt === undefined ? FIRST_SAVE_MS : Math.max(0, lastSaveAt + SAVE_EVERY_MS - performance.now());
    const due = setTimeout(() => {
      const onClock = () => {
        if (saveDue === due) saveDue = undefined;
        return unsaved ? saveSnapshot() : undefined;
      };
      saving = saving.then(onClock, onClock);
      // A failed save shows in the run's final save, which uses the same connection.
      saving.catch(() => {});
    }, wait);
    due.unref();
    saveDue = due;
  };
  let firstTextSent = false;
  let textPart: { type: 'text'; text: string } | undefined;
  let textId = '';
  const startText = (id: string) => {
    textId = `${ctx.messageId}-${stepsRun}-${id}`;
    textPart = { type: 'text', text: '' };
    parts.push(textPart);
    write({ type: 'text-start', id: textId });
    return textPart;
  };

  try {
    for await (const part of stream) await onPart(part);
  } catch (error) {
    if (!ctx.signal.aborted) {
      const llmError = toLlmError(error);
      ctx.fail(llmError.category, llmError.message);
    }
  } finally {
    clearTimeout(saveDue);
    await saving.catch(() => {});
  }
  return result;

  async function onPart(part: TextStreamPart<ToolSet>) {
    switch (part.type) {
      case 'start-step':
        // The previous step's text is saved as the next one begins (its tool calls and results
        // were saved as they came); the last step is saved when the run ends, so a one-step answer
        // costs one commit.
        if (stepsRun > 0 && unsaved) await saveNow();
        stepsRun += 1;
        parts.push({ type: 'step-start' });
        write({ type: 'start-step' });
        break;
      case 'text-start':
        startText(part.id);
        break;
      case 'text-delta': {
        const text = textPart ?? startText(part.id);
        text.text += part.text;
        write({ type: 'text-delta', id: textId, delta: part.text });
        // The answer's first words go out now, not after the rest of the burst they came in.
        if (!firstTextSent) {
          firstTextSent = true;
          await yieldToSocket();
        }
        saveSoon();
        break;
      }
      case 'text-end':
        if (textPart) write({ type: 'text-end', id: textId });
        textPart = undefined;
        break;
      case 'tool-call': {
        const agentTool = tools.byName.get(part.toolName);
        const toolPart: ToolPart = {
          type: 'dynamic-tool',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          title: agentTool?.displayName ?? tools.builtinTitles.get(part.toolName),
          state: 'input-available',
          input: part.input ?? {},
          toolMetadata: {
            actionId: agentTool?.actionId ?? null,
            effect: agentTool?.effect ?? null,
            startedAt: new Date().toISOString(),
          },
        };
        parts.push(toolPart);
        write({
          type: 'tool-input-available',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: toolPart.input,
          dynamic: true,
          title: toolPart.title,
          toolMetadata: toolPart.toolMetadata,
        });
        if ('invalid' in part && part.invalid) break; // the SDK reports it as a tool-error next
        if (agentTool && tools.asksFirst(agentTool)) {
          const approvalId = await requestApproval(ctx, toolPart, agentTool);
          if (approvalId) result.pendingApprovals.push(approvalId);
        }
        // The tool now runs, maybe for long: the call is saved before it.
        await saveNow();
        break;
      }
      case 'tool-result': {
        const toolPart = findTool(part.toolCallId);
        const agentTool = tools.byName.get(part.toolName);
        if (toolPart) {
          toolPart.state = 'output-available';
          toolPart.output = part.output;
          toolPart.toolMetadata.durationMs = tools.durations.get(part.toolCallId);
        }
        write({
          type: 'tool-output-available',
          toolCallId: part.toolCallId,
          output: part.output,
          dynamic: true,
        });
        await auditTool('chat.tool.executed', part.toolCallId, toolPart, {
          ok: true,
          // A write or send that ran with no card: the person chose "Allow without asking".
          ...(agentTool && agentTool.effect !== 'read' && tools.awaitsApproval && !tools.asksFirst(agentTool)
            ? { allowedWithoutAsking: true }
            : {}),
        });
        await saveNow();
        break;
      }
      case 'tool-error': {
        const toolPart = findTool(part.toolCallId);
        const known = tools.known(part.toolName);
        // The SDK passes a refused pre-check on as its message: the tool's own words.
        const text =
          typeof part.error === 'string' && tools.refusedBeforeApproval.has(part.error)
            ? part.error
            : toolErrorText(part.error, part.toolName, known);
        if (toolPart) {
          toolPart.state = 'output-error';
          toolPart.errorText = text;
          toolPart.toolMetadata.durationMs = tools.durations.get(part.toolCallId);
        }
        write({ type: 'tool-output-error', toolCallId: part.toolCallId, errorText: text, dynamic: true });
        await auditTool(known ? 'chat.tool.failed' : 'chat.tool.refused', part.toolCallId, toolPart, {
          toolName: part.toolName,
        });
        await saveNow();
        break;
      }
      case 'finish-step':
        result.lastFinishReason = part.finishReason;
        result.logprobs.push(...logprobsOf(part.providerMetadata));
        write({ type: 'finish-step' });
        break;
      case 'error': {
        const error = toLlmError(part.error);
        ctx.fail(error.category, error.message);
        break;
      }
      default:
        break;
    }
  }
}
