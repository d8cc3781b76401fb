import { APPROVAL_DECIDED_DETAIL, APPROVAL_EXPIRED_DETAIL, APPROVAL_MISMATCH_DETAIL } from '@cadre/contract';
import type { UIMessageChunk } from 'ai';
import { HttpError, notFound } from '../../http/errors.ts';
import type { ApprovalRow } from './approval-repository.ts';
import { requireAgent, type ChatContext, type ChatVia } from './context.ts';
import { argsHash, canonicalJson, type ToolPart } from './runtime/messages.ts';
import type { ToolExecutionResult } from './runtime/ports.ts';
import type { Visitor } from './runtime/run.ts';
import { loadRuntime, RUN_IN_PROGRESS, streamRun } from './runs.ts';
import { limitTurns } from './turns.ts';

export interface DecisionInput {
  userId: number;
  agentId: number;
  /** The embedding site's visitor whose thread it must be; '' for the owner's own. */
  endUser: string;
  approvalId: string;
  decision: 'approve' | 'deny';
  /** When given, must be the stored call's id. */
  toolCallId?: string;
  /** When given, must hash to the stored arguments. */
  args?: unknown;
  reason?: string;
  /** "Always allow for this agent": the tool runs without asking from now on. */
  alwaysAllow?: boolean;
  via?: ChatVia;
  /** A host site's visitor, in a copilot chat minted for them. */
  visitor?: Visitor;
  signal: AbortSignal;
}

/**
 * Approves or denies a stored pending call. Only the stored call runs, once, for its owner: the
 * decision is an atomic `pending -> approved|denied` UPDATE, then `approved -> executed`. The run
 * then continues with the result (or the denial) once no other approval of the same run is pending.
 */
export async function decide(
  ctx: ChatContext,
  input: DecisionInput,
): Promise<{ threadId: string; stream: ReadableStream<UIMessageChunk> }> {
  const { userId, agentId, approvalId } = input;
  // The decision continues the run: decided on an instance shutting down, it would be cut short.
  ctx.runs.refuseWhileDraining();
  await limitTurns(ctx, userId);
  const approval = await ctx.approvals.find(userId, approvalId);
  if (!approval) throw notFound('Approval not found');
  const thread = await ctx.repo.findThread(userId, agentId, approval.thread_id, input.endUser);
  if (!thread) throw notFound('Approval not found');
  if (input.toolCallId !== undefined && input.toolCallId !== approval.tool_call_id) {
    throw new HttpError('approval_closed', APPROVAL_MISMATCH_DETAIL);
  }
  if (input.args !== undefined && argsHash(input.args) !== approval.args_hash) {
    throw new HttpError('approval_closed', 'The arguments differ from the ones the agent asked to use');
  }
  // An expired approval says so, never something else (a connection, a race).
  if (approval.status === 'expired') throw new HttpError('expired', APPROVAL_EXPIRED_DETAIL);
  if (approval.status !== 'pending')
    throw new HttpError('approval_closed', `This approval was already ${approval.status}`);
  if (approval.expires_at <= new Date().toISOString()) {
    await ctx.approvals.transition(userId, approvalId, 'pending', 'expired');
    throw new HttpError('expired', APPROVAL_EXPIRED_DETAIL);
  }
  const storedArgs = JSON.parse(approval.args) as Record<string, unknown>;
  if (argsHash(storedArgs) !== approval.args_hash || canonicalJson(storedArgs) !== approval.args) {
    throw new HttpError('conflict', 'The stored call is inconsistent and cannot run');
  }
  const agent = await requireAgent(ctx, userId, agentId);
  const messages = await ctx.repo.listMessages(userId, thread.id);
  const index = messages.findIndex((m) =>
    m.parts.some((p) => p.type === 'dynamic-tool' && p.toolCallId === approval.tool_call_id),
  );
  if (index < 0) throw notFound('Approval not found');
  const message = messages[index]!;
  const part = message.parts.find(
    (p): p is ToolPart => p.type === 'dynamic-tool' && p.toolCallId === approval.tool_call_id,
  )!;
  // The decision continues the run: it holds the thread from before the tool runs until the
  // continuation ends, so no other turn interleaves with it on any instance.
  const claimId = await ctx.runs.claim({
    runId: approval.run_id,
    userId,
    threadId: thread.id,
    messageId: message.id,
  });
  if (!claimId) throw new HttpError('run_in_progress', RUN_IN_PROGRESS);
  let stillPending: boolean;
  let outcome: UIMessageChunk;
  try {
    outcome =
      input.decision === 'deny'
        ? await deny(ctx, input, approval, part)
        : await approve(ctx, input, approval, part, storedArgs);
    stillPending = message.parts.some((p) => p.type === 'dynamic-tool' && p.state === 'approval-requested');
    await ctx.repo.updateMessage(userId, thread.id, {
      id: message.id,
      parts: message.parts,
      status: stillPending ? 'awaiting_approval' : 'streaming',
    });
  } catch (error) {
    await ctx.runs.end(claimId, 'awaiting_approval');
    throw error;
  }
  if (stillPending) {
    await ctx.runs.end(claimId, 'awaiting_approval');
    const [{ createUIMessageStream }] = await loadRuntime();
    const stream = createUIMessageStream({
      execute: ({ writer }) => {
        writer.write({ type: 'start', messageId: message.id, messageMetadata: { threadId: thread.id } });
        writer.write(outcome);
        writer.write({ type: 'finish', messageMetadata: { status: 'awaiting_approval' } });
      },
    });
    return { threadId: thread.id, stream };
  }
  const stream = await streamRun(ctx, {
    userId,
    agent,
    threadId: thread.id,
    history: messages.slice(0, index),
    message: { ...message, status: 'streaming' },
    signal: input.signal,
    prelude: [outcome],
    runId: approval.run_id,
    continues: true,
    claimId,
    via: input.via,
    visitor: input.visitor,
    source: input.via === 'copilot' ? 'copilot' : 'chat',
  });
  return { threadId: thread.id, stream };
}

/** Records the denial on the call; the model is told it was not run. */
async function deny(
  ctx: ChatContext,
  input: DecisionInput,
  approval: ApprovalRow,
  part: ToolPart,
): Promise<UIMessageChunk> {
  if (!(await ctx.approvals.transition(input.userId, approval.id, 'pending', 'denied'))) {
    throw new HttpError('approval_closed', APPROVAL_DECIDED_DETAIL);
  }
  part.state = 'output-denied';
  part.approval = {
    id: approval.id,
    approved: false,
    reason: input.reason?.trim() || 'The user denied this action.',
  };
  await ctx.audit.record({
    userId: input.userId,
    action: 'chat.approval.denied',
    objectType: 'approval',
    objectId: approval.id,
    detail: { threadId: approval.thread_id, actionId: approval.action_id },
  });
  return { type: 'tool-output-denied', toolCallId: part.toolCallId };
}

/** Runs exactly the stored call, once, with the user's own connection. */
async function approve(
  ctx: ChatContext,
  input: DecisionInput,
  approval: ApprovalRow,
  part: ToolPart,
  storedArgs: Record<string, unknown>,
): Promise<UIMessageChunk> {
  const { userId } = input;
  // The tool must still be attached to this agent (K4), checked before anything runs.
  const tools = await ctx.executor.listAgentTools(userId, input.agentId);
  if (!tools.some((t) => t.actionId === approval.action_id)) {
    throw new HttpError('conflict', 'This tool is no longer attached to the agent');
  }
  if (!(await ctx.approvals.transition(userId, approval.id, 'pending', 'approved'))) {
    throw new HttpError('approval_closed', APPROVAL_DECIDED_DETAIL);
  }
  await ctx.audit.record({
    userId,
    action: 'chat.approval.approved',
    objectType: 'approval',
    objectId: approval.id,
    detail: { threadId: approval.thread_id, actionId: approval.action_id, argsHash: approval.args_hash },
  });
  if (input.alwaysAllow) {
    // The call is approved already: a choice that cannot be recorded (the tool was detached a
    // moment ago) must not keep it from running. The card asks again next time.
    await ctx.agents
      .allowWithoutAsking(userId, input.agentId, approval.action_id, approval.id)
      .catch(() => undefined);
  }
  const started = performance.now();
  let result: ToolExecutionResult;
  try {
    result = await ctx.executor.execute(userId, approval.action_id, storedArgs, input.signal);
  } catch {
    result = { ok: false, error: 'The tool failed.', code: 'failed' };
  }
  await ctx.approvals.transition(userId, approval.id, 'approved', 'executed');
  part.toolMetadata.durationMs = Math.round(performance.now() - started);
  part.approval = { id: approval.id, approved: true };
  await ctx.audit.record({
    userId,
    action: result.ok ? 'chat.tool.executed' : 'chat.tool.failed',
    objectType: 'action',
    objectId: String(approval.action_id),
    detail: { threadId: approval.thread_id, approvalId: approval.id, toolCallId: approval.tool_call_id },
  });
  if (result.ok) {
    part.state = 'output-available';
    part.output = result.data ?? null;
    return { type: 'tool-output-available', toolCallId: part.toolCallId, output: part.output, dynamic: true };
  }
  part.state = 'output-error';
  part.errorText = result.error;
  return { type: 'tool-output-error', toolCallId: part.toolCallId, errorText: result.error, dynamic: true };
}
