import type { UIMessageChunk } from 'ai';
import type { RunSource } from '../../kernel.ts';
import type { AgentProfile, RunUsage } from './ports.ts';
import { HttpError } from '../../http/errors.ts';
import { modelFor, type ChatContext, type ChatVia } from './context.ts';
import type { StoredMessage } from './runtime/messages.ts';
import { RunAbort, type RunEndStatus } from './run-registry.ts';
import type { RunTap } from './run-streams.ts';
import type { GenerationOptions, RunOutcome, Visitor } from './runtime/run.ts';
import type { RunMode } from './runtime/tool-set.ts';

export interface StreamRunInput {
  userId: number;
  agent: AgentProfile;
  threadId: string;
  history: StoredMessage[];
  message: StoredMessage;
  /**
   * The client's connection: closing it aborts the run (with `rejoinable`, once nobody has watched
   * the answer for RUN_REJOIN_GRACE_MS).
   */
  signal: AbortSignal;
  /** A chat frame's answer, which a reload or another tab can rejoin (see RunStreams). */
  rejoinable?: boolean;
  /** Chunks sent before the run's own (an approval's outcome). */
  prelude?: UIMessageChunk[];
  /** The run's id (a continuation's is the run's it continues). */
  runId?: string;
  /** Continues a run after an approval: its usage is the same turn's, not a new one. */
  continues?: boolean;
  /** Where the run came from, for its usage and metrics. */
  source: RunSource;
  /** The run's claim on the thread, when the turn's own commit made it (see RunRegistry.claim). */
  claimId?: string;
  mode?: RunMode;
  /** Unattended runs of a trigger event: the prefix of their writes' idempotency keys. */
  idempotencyPrefix?: string;
  via?: ChatVia;
  /** The person's IANA time zone (told to the model with the current time). */
  timeZone?: string;
  /** A host site's visitor, in a copilot chat minted for them (told to the model). */
  visitor?: Visitor;
  /** The caller's generation settings (API runs). */
  generation?: GenerationOptions;
  /** Told how the run ended (undefined when it failed before an outcome), after its last save. */
  onEnd?: (outcome: RunOutcome | undefined) => void;
}

/**
 * The AI SDK and the runtime, loaded with the first run rather than at every start, and kept: an
 * `import()` of a module already loaded still goes through the module loader on every call.
 */
const importRuntime = () => Promise.all([import('ai'), import('./runtime/run.ts')]);
let runtime: ReturnType<typeof importRuntime> | undefined;
export const loadRuntime = () => (runtime ??= importRuntime());

export const RUN_IN_PROGRESS = 'A run is already in progress in this thread; stop it first';

/**
 * A chat answer whose connection closed goes on this long for someone to rejoin it (a reload takes
 * about a second); it is stopped once nobody has watched it for that long.
 */
export const RUN_REJOIN_GRACE_MS = 3_000;
const REJOIN_CHECK_MS = 250;

/**
 * Aborts the run when its connection closes: at once, or for a rejoinable answer once nobody has
 * watched it for RUN_REJOIN_GRACE_MS. Returns the function that stops listening.
 */
function abortOnDisconnect(input: StreamRunInput, controller: AbortController, tap: RunTap) {
  const disconnected = new RunAbort('disconnected', 'The connection closed.');
  let unwatchedSince = 0;
  let check: NodeJS.Timeout | undefined;
  const onAbort = () => {
    if (!input.rejoinable) return controller.abort(disconnected);
    unwatchedSince = Date.now();
    check = setInterval(() => {
      if (tap.watched()) unwatchedSince = Date.now();
      else if (Date.now() - unwatchedSince >= RUN_REJOIN_GRACE_MS) {
        clearInterval(check);
        controller.abort(disconnected);
      }
    }, REJOIN_CHECK_MS);
    check.unref();
  };
  if (input.signal.aborted) onAbort();
  else input.signal.addEventListener('abort', onAbort, { once: true });
  return () => {
    clearInterval(check);
    input.signal.removeEventListener('abort', onAbort);
  };
}

/**
 * Starts a run of the agent for `message` and returns its UI message stream: a `start` chunk with
 * `{threadId, runId, offline, model, createdAt}`, the run's chunks, and a `finish` chunk with its outcome. The run
 * holds its thread in the run registry (409 when another run holds it) until it ends; its last
 * save records `chat.run.finished` in the same commit.
 */
export async function streamRun(
  ctx: ChatContext,
  input: StreamRunInput,
): Promise<ReadableStream<UIMessageChunk>> {
  const runId = input.runId ?? crypto.randomUUID();
  const claimId =
    input.claimId ??
    (await ctx.runs.claim({
      runId,
      userId: input.userId,
      threadId: input.threadId,
      messageId: input.message.id,
    }));
  if (!claimId) throw new HttpError('run_in_progress', RUN_IN_PROGRESS);
  const controller = new AbortController();
  const tap = ctx.runs.streams.open(claimId);
  const stopListening = abortOnDisconnect(input, controller, tap);
  ctx.runs.attach(claimId, controller);
  const { selection, notice } = modelFor(ctx, input.agent);
  const [{ createUIMessageStream }, { runAgent }] = await loadRuntime();
  return createUIMessageStream({
    execute: async ({ writer: sent }) => {
      // Every chunk goes to the connection and to the tap, which watchers (rejoins) read.
      const writer = {
        write(chunk: UIMessageChunk) {
          tap.push(chunk);
          sent.write(chunk);
        },
      };
      writer.write({
        type: 'start',
        messageId: input.message.id,
        messageMetadata: {
          threadId: input.threadId,
          runId,
          offline: selection.isOffline,
          model: selection.id,
          modelName: selection.name,
          createdAt: new Date().toISOString(),
        },
      });
      for (const chunk of input.prelude ?? []) writer.write(chunk);
      let ended: RunEndStatus = 'interrupted';
      let outcome: RunOutcome | undefined;
      // Whether the run's last save ended its row too (the usual end: one commit fewer).
      let endedInLastSave = false;
      const started = performance.now();
      try {
        outcome = await runInSpan(ctx, input, () =>
          runAgent({
            store: { ...ctx.repo, insertApproval: ctx.approvals.insert },
            executor: ctx.executor,
            knowledge: ctx.knowledge,
            selection,
            notice,
            limits: ctx.limits,
            audit: ctx.audit,
            userId: input.userId,
            agent: input.agent,
            threadId: input.threadId,
            runId,
            history: input.history,
            message: input.message,
            signal: controller.signal,
            write: (chunk) => writer.write(chunk),
            mode: input.mode,
            idempotencyPrefix: input.idempotencyPrefix,
            timeZone: input.timeZone,
            visitor: input.visitor,
            hostFunctions: input.via === 'copilot' ? ctx.hostFunctions : undefined,
            telemetry: ctx.telemetry,
            servicesUrl: ctx.servicesUrl,
            generation: input.generation,
            finalize: async (trx, final) => {
              await ctx.audit.record(
                {
                  userId: input.userId,
                  action: 'chat.run.finished',
                  objectType: 'thread',
                  objectId: input.threadId,
                  detail: { runId, status: final.status, errorCategory: final.errorCategory ?? null },
                },
                trx,
              );
              // The one place a run's usage is stored: in the commit of its last save.
              await ctx.usage.record(runUsage(input, runId, selection.id, final), trx);
              await ctx.runs.end(claimId, endStatus(final), trx);
              endedInLastSave = true;
            },
          }),
        );
        ended = endStatus(outcome);
        if (!controller.signal.aborted) {
          writer.write({
            type: 'finish',
            messageMetadata: {
              status: outcome.status,
              errorCategory: outcome.errorCategory,
              pendingApprovals: outcome.pendingApprovals,
            },
          });
        }
      } finally {
        stopListening();
        tap.end();
        ctx.telemetry.metrics.chatRun(input.source, ended, (performance.now() - started) / 1000);
        // Without an outcome the last save failed (or never ran), and its commit with it.
        if (!(endedInLastSave && outcome)) await ctx.runs.end(claimId, ended);
        input.onEnd?.(outcome);
      }
    },
    onError: () => 'The chat service failed while answering.',
  });
}

/** How a run's row ends for its outcome: one still streaming was cut short. */
const endStatus = ({ status }: RunOutcome): RunEndStatus => (status === 'streaming' ? 'interrupted' : status);

/** What the run used, for the usage module (`UsageLedger`). */
function runUsage(input: StreamRunInput, runId: string, model: string, final: RunOutcome): RunUsage {
  return {
    userId: input.userId,
    agentId: input.agent.id,
    threadId: input.threadId,
    runId,
    source: input.source,
    model,
    inputTokens: final.usage?.inputTokens ?? 0,
    outputTokens: final.usage?.outputTokens ?? 0,
    estimated: final.usage?.estimated ?? false,
    toolCalls: final.toolCalls ?? 0,
    status: final.status,
    continued: input.continues === true,
  };
}

/**
 * The run as one span (GenAI's `invoke_agent`), whose model, tool and database spans carry the
 * user's and agent's ids; never the agent's name or guidelines, which its owner wrote.
 */
function runInSpan(ctx: ChatContext, input: StreamRunInput, run: () => Promise<RunOutcome>) {
  return ctx.telemetry.span(
    'invoke_agent',
    { 'gen_ai.operation.name': 'invoke_agent', 'cadre.run.source': input.source },
    async (span) => {
      const outcome = await run();
      span.setAttributes({ 'cadre.run.status': outcome.status });
      if (outcome.status === 'error') span.fail(outcome.errorCategory ?? 'error');
      return outcome;
    },
    { inherit: { 'cadre.user.id': String(input.userId), 'gen_ai.agent.id': String(input.agent.id) } },
  );
}
