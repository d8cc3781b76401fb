import type { UIMessageChunk } from 'ai';
import type { AuditLog } from '../../../kernel.ts';
import { argsHash, canonicalJson, type ToolPart } from './messages.ts';
import type { AgentTool, RunStore } from './ports.ts';

export interface ApprovalRequestContext {
  store: RunStore;
  audit: AuditLog;
  userId: number;
  threadId: string;
  runId: string;
  approvalTtlMs: number;
  write: (chunk: UIMessageChunk) => void;
}

/**
 * Turns a write/send tool call into a stored pending approval, bound to the call, its canonical
 * arguments (and their hash) and the user; the call itself never runs here. Returns the approval's
 * id, or undefined when the call cannot be approved (it is then reported as failed).
 */
export async function requestApproval(
  ctx: ApprovalRequestContext,
  toolPart: ToolPart,
  agentTool: AgentTool,
): Promise<string | undefined> {
  const approvalId = crypto.randomUUID();
  const args = (toolPart.input ?? {}) as Record<string, unknown>;
  const hash = argsHash(args);
  try {
    await ctx.store.insertApproval(
      {
        id: approvalId,
        user_id: ctx.userId,
        thread_id: ctx.threadId,
        run_id: ctx.runId,
        tool_call_id: toolPart.toolCallId,
        action_id: agentTool.actionId,
        args_hash: hash,
        args: canonicalJson(args),
        status: 'pending',
      },
      ctx.approvalTtlMs,
    );
  } catch {
    // A reused tool call id (a misbehaving model) cannot be approved: report it as failed.
    toolPart.state = 'output-error';
    toolPart.errorText = 'This tool call cannot be approved (duplicate call id).';
    ctx.write({
      type: 'tool-output-error',
      toolCallId: toolPart.toolCallId,
      errorText: toolPart.errorText,
      dynamic: true,
    });
    return undefined;
  }
  // The card counts down from the time left (not the client's clock) and shows the expiry.
  const descriptor = {
    expiresAt: new Date(Date.now() + ctx.approvalTtlMs).toISOString(),
    expiresInMs: ctx.approvalTtlMs,
  };
  toolPart.state = 'approval-requested';
  toolPart.approval = { id: approvalId, descriptor };
  ctx.write({
    type: 'tool-approval-request',
    approvalId,
    toolCallId: toolPart.toolCallId,
    approvalDescriptor: descriptor,
  });
  await ctx.audit.record({
    userId: ctx.userId,
    action: 'chat.approval.requested',
    objectType: 'approval',
    objectId: approvalId,
    detail: {
      threadId: ctx.threadId,
      runId: ctx.runId,
      actionId: agentTool.actionId,
      effect: agentTool.effect,
      argsHash: hash,
    },
  });
  return approvalId;
}
