import type { JSONSchema7 } from '@ai-sdk/provider';
import { jsonSchema, tool, type ToolExecutionOptions, type ToolSet, type UIMessageChunk } from 'ai';
import type { Telemetry } from '../../../kernel.ts';
import type { AgentProfile, KnowledgeBase } from '../ports.ts';
import { traceToolCall } from '../../../telemetry/tool-calls.ts';
import { HOST_FUNCTION_TOOL, type HostFunctionBridge } from '../host-functions.ts';
import { createHostFunctionTool } from './host-function-tool.ts';
import type { AgentTool, ToolExecutor } from './ports.ts';
import { API_WRITE_REFUSAL, UNATTENDED_WRITE_REFUSAL } from './refusals.ts';
import { argumentsValidator, INVALID_ARGUMENTS } from './tool-arguments.ts';
import { knowledgeTool, SEARCH_KNOWLEDGE_TITLE, SEARCH_KNOWLEDGE_TOOL } from './knowledge-tool.ts';

/**
 * A tool call that ends with a message the model and the user may see. The SDK hands the model
 * `String(error)`: the tool's words alone (never the class name), and, for a service that must be
 * connected again, the link to do it, so the answer can offer it.
 */
export class ToolFailure extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly reconnectUrl?: string,
  ) {
    super(message);
    this.name = 'ToolFailure';
  }

  override toString() {
    return this.reconnectUrl ? `${this.message}. [Reconnect](${this.reconnectUrl})` : this.message;
  }
}

/**
 * A tool's refusal of a call's arguments before any approval is asked. The SDK hands a refused
 * call to the model (and the stream) as `error.toString()`: this one reads as the tool's words alone.
 */
class RefusedBeforeApproval extends Error {
  override toString() {
    return this.message;
  }
}

/**
 * Who is there to approve a write or send call: a person in the chat (`interactive`), nobody (a
 * trigger's `unattended` run), or a caller outside Cadre (`api`: the OpenAI-compatible API, MCP).
 */
export type RunMode = 'interactive' | 'unattended' | 'api';

export interface ToolSetContext {
  userId: number;
  runId: string;
  agent: AgentProfile;
  executor: ToolExecutor;
  maxToolCallsPerTurn: number;
  mode?: RunMode;
  hostFunctions?: HostFunctionBridge;
  write: (chunk: UIMessageChunk) => void;
  signal: AbortSignal;
  /**
   * Unattended runs of a trigger event: write and send calls carry `<prefix>:<action id>:<n>` as
   * their idempotency key, the n-th call of that action in the run. A retried run answers the same
   * event from the start, so its n-th call of an action is the lost attempt's n-th: one that was
   * made (or may have been) is not made again. The model's arguments are not part of the key: a
   * retry that words them differently is still the same write.
   */
  idempotencyPrefix?: string;
  /** Set when the agent has knowledge files: the run offers "Search knowledge" over them. */
  knowledge?: KnowledgeBase;
  /** The runtime's own tools get the span and count a provider's action gets (tools/execute.ts). */
  telemetry?: Telemetry;
  /** The web app's Services page: a disconnected service's failure links to it. */
  servicesUrl?: string;
}

export interface RunTools {
  tools: ToolSet;
  /** The agent's tools by the name the model sees. */
  byName: Map<string, AgentTool>;
  /** Tools the runtime adds itself (not an agent's action), with their title. */
  builtinTitles: Map<string, string>;
  /** How long each executed call took, by tool call id. */
  durations: Map<string, number>;
  /** Whether the model may call `toolName` in this run. */
  known(toolName: string): boolean;
  /** Write and send calls wait for the owner's approval (they are not run, or refused, here). */
  awaitsApproval: boolean;
  /** Whether a call of this tool waits for the person's approval in this run. */
  asksFirst(tool: AgentTool): boolean;
  /**
   * The SDK's `experimental_refineToolInput`: for a call that would wait for approval, the tool's
   * own pre-check. A refusal throws, so the SDK reports the call as invalid (no card) and the model
   * reads the tool's words as the call's error.
   */
  refineInput: Record<string, (input: Record<string, unknown>) => Promise<Record<string, unknown>>>;
  /** What the tools refused before any approval was asked, shown as they said it. */
  refusedBeforeApproval: Set<string>;
}

/** The runtime's own tools (the host page's functions, "Search knowledge") are traced like actions. */
const traced = <T>(
  ctx: Pick<ToolSetContext, 'telemetry' | 'userId' | 'agent'>,
  toolName: string,
  provider: 'host' | 'knowledge',
  run: () => Promise<T>,
): Promise<T> =>
  traceToolCall(
    ctx.telemetry,
    {
      attributes: {
        'gen_ai.tool.name': toolName,
        'cadre.user.id': String(ctx.userId),
        'cadre.agent.id': String(ctx.agent.id),
      },
      provider,
    },
    run,
  );

/** Provider-safe tool names (`^[a-zA-Z0-9_-]{1,64}$`), unique within the agent. */
export function toolNames(tools: AgentTool[]): Map<string, AgentTool> {
  const byName = new Map<string, AgentTool>();
  for (const t of tools) {
    const base = t.name.replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, 56) || `tool_${t.actionId}`;
    let name = base;
    for (let i = 2; byName.has(name); i++) name = `${base}_${i}`;
    byName.set(name, t);
  }
  return byName;
}

/** What a tool's `execute` reads of the SDK's options. */
type ExecuteOptions = Pick<ToolExecutionOptions<never>, 'toolCallId' | 'abortSignal'>;
type Execute<O extends ExecuteOptions> = (input: Record<string, unknown>, options: O) => Promise<unknown>;

/**
 * The tools a run offers the model. Read tools, and write/send tools the person allowed without
 * asking, run through the executor with the chatting user's id; other write and send tools have no
 * `execute`, so a call ends the loop and becomes a pending approval (in a trigger's runs they run
 * only if the owner allowed it, and are refused otherwise; API runs refuse them where the owner
 * chose so). Copilot runs also get the host-page function tool.
 */
export function buildToolSet(ctx: ToolSetContext, agentTools: AgentTool[]): RunTools {
  const byName = toolNames(agentTools);
  const builtinTitles = new Map<string, string>();
  const durations = new Map<string, number>();
  const unattended = ctx.mode === 'unattended';
  const api = ctx.mode === 'api';
  // A caller outside Cadre gets the chat's approvals unless the owner chose to refuse its writes;
  // a trigger's run has nobody to ask.
  const awaitsApproval = api ? ctx.agent.apiWrites === 'approve' : !unattended;
  // A write or send tool waits for approval in such a run, unless the person let it run without
  // asking; that choice is made in the chat and holds in the chat, never for a caller outside Cadre.
  const asksFirst = (tool: AgentTool) =>
    tool.effect !== 'read' && awaitsApproval && (tool.approval !== 'allow' || api);
  let toolCalls = 0;
  const writesByAction = new Map<number, number>();

  /** Every executed call: counted against the turn's limit (refused ones too), then timed. */
  const limited =
    <O extends ExecuteOptions>(run: Execute<O>, refusal?: ToolFailure): Execute<O> =>
    async (input, options) => {
      toolCalls += 1;
      if (refusal) throw refusal;
      if (toolCalls > ctx.maxToolCallsPerTurn) {
        throw new ToolFailure(
          `Tool-call limit for this turn (${ctx.maxToolCallsPerTurn}) reached; the tool was not run.`,
          'limit',
        );
      }
      const started = performance.now();
      try {
        return await run(input, options);
      } finally {
        durations.set(options.toolCallId, Math.round(performance.now() - started));
      }
    };

  const tools: ToolSet = {};
  const refineInput: RunTools['refineInput'] = {};
  const refusedBeforeApproval = new Set<string>();
  for (const [name, agentTool] of byName) {
    const description = agentTool.description || agentTool.displayName;
    const schema = objectSchema(agentTool.inputSchema);
    const inputSchema = jsonSchema<Record<string, unknown>>(schema, { validate: argumentsValidator(schema) });
    if (asksFirst(agentTool)) {
      tools[name] = tool({ description, inputSchema });
      const precheck = ctx.executor.precheck?.bind(ctx.executor);
      if (precheck)
        refineInput[name] = async (input) => {
          const refusal = await precheck(ctx.userId, agentTool.actionId, input);
          if (refusal === undefined) return input;
          refusedBeforeApproval.add(refusal);
          throw new RefusedBeforeApproval(refusal);
        };
      continue;
    }
    // Nobody in a chat started an unattended or API run: its writes need the owner's consent, given
    // ahead for a trigger's runs; an API run that does not wait for approval refuses them.
    const refused = agentTool.effect !== 'read' && (api || (unattended && !ctx.agent.allowUnattendedWrites));
    const refusal = refused
      ? new ToolFailure(api ? API_WRITE_REFUSAL : UNATTENDED_WRITE_REFUSAL, 'refused')
      : undefined;
    tools[name] = tool({
      description,
      inputSchema,
      execute: limited(async (input, options) => {
        const args = input ?? {};
        let idempotencyKey: string | undefined;
        if (agentTool.effect !== 'read' && ctx.idempotencyPrefix) {
          const n = (writesByAction.get(agentTool.actionId) ?? 0) + 1;
          writesByAction.set(agentTool.actionId, n);
          idempotencyKey = `${ctx.idempotencyPrefix}:${agentTool.actionId}:${n}`;
        }
        const result = await ctx.executor.execute(
          ctx.userId,
          agentTool.actionId,
          args,
          options.abortSignal ?? ctx.signal,
          { idempotencyKey },
        );
        const reconnect = result.ok || result.code !== 'auth_expired' ? undefined : ctx.servicesUrl;
        if (!result.ok) throw new ToolFailure(result.error, result.code, reconnect);
        return result.data ?? null;
      }, refusal),
    });
  }

  if (ctx.hostFunctions && !tools[HOST_FUNCTION_TOOL] && !unattended) {
    const hostTool = createHostFunctionTool(ctx.hostFunctions, {
      userId: ctx.userId,
      agentId: ctx.agent.id,
      runId: ctx.runId,
      write: ctx.write,
      signal: ctx.signal,
    });
    builtinTitles.set(HOST_FUNCTION_TOOL, 'Host page function');
    type HostOptions = Parameters<NonNullable<typeof hostTool.execute>>[1];
    tools[HOST_FUNCTION_TOOL] = {
      ...hostTool,
      execute: limited(async (input, options: HostOptions) =>
        traced(ctx, HOST_FUNCTION_TOOL, 'host', async () => {
          try {
            return await hostTool.execute!(input, options);
          } catch (error) {
            throw new ToolFailure(
              error instanceof Error ? error.message : 'The page function failed.',
              'host',
            );
          }
        }),
      ),
    };
  }

  if (ctx.knowledge && !tools[SEARCH_KNOWLEDGE_TOOL]) {
    const { description, inputSchema, search } = knowledgeTool(ctx.knowledge, ctx.userId, ctx.agent.id);
    builtinTitles.set(SEARCH_KNOWLEDGE_TOOL, SEARCH_KNOWLEDGE_TITLE);
    tools[SEARCH_KNOWLEDGE_TOOL] = tool({
      description,
      inputSchema,
      execute: limited(async (input) =>
        traced(ctx, SEARCH_KNOWLEDGE_TOOL, 'knowledge', () => search(String(input.query ?? ''))),
      ),
    });
  }

  return {
    tools,
    byName,
    builtinTitles,
    durations,
    known: (toolName) => byName.has(toolName) || builtinTitles.has(toolName),
    awaitsApproval,
    asksFirst,
    refineInput,
    refusedBeforeApproval,
  };
}

/** What the user and the model see when a tool call failed. */
export function toolErrorText(error: unknown, toolName: string, attached: boolean): string {
  if (!attached) return `Tool "${toolName}" is not available to this agent; it was not run.`;
  if (error instanceof ToolFailure) return error.message;
  if (error instanceof Error && error.name === 'AbortError') return 'The tool was stopped.';
  // The SDK reports a refused argument check as text (or an error whose text) carries our
  // validator's message.
  const message = typeof error === 'string' ? error : error instanceof Error ? error.message : '';
  const invalid = new RegExp(`${INVALID_ARGUMENTS}: ([^\\n]*)`).exec(message);
  if (invalid) return `The tool was called with invalid arguments (${invalid[1]}); it was not run.`;
  if (/Invalid input|Type validation/i.test(message)) return 'The tool was called with invalid arguments.';
  return 'The tool failed.';
}

function objectSchema(schema: JSONSchema7): JSONSchema7 {
  return schema.type === 'object' || schema.properties
    ? { type: 'object', ...schema }
    : { type: 'object', properties: {} };
}
