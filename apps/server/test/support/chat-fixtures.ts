import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import type { UIMessageChunk } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { AppOptions } from '../../src/app.ts';
import type { Db } from '../../src/db/database.ts';
import { createOfflineModel } from '../../src/modules/offline-model/index.ts';
import type { ModelSelection } from '../../src/modules/chat/llm/select-model.ts';
import type { ToolExecutionResult, ToolExecutor } from '../../src/modules/chat/runtime/ports.ts';
import { chatToolsOf } from '../../src/modules/chat/tools-executor.ts';
import { createAgentsService } from '../../src/modules/agents/service.ts';
import { createAuditLog } from '../../src/modules/audit/service.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/** Real rows for chat tests (users come from ./users.ts): agents, a built-in service, its actions and attachments. */

const at = () => new Date().toISOString();

export async function seedAgent(
  db: Db,
  userId: number,
  name = 'Helper',
  guidelines: string | null = null,
): Promise<number> {
  const row = await db.kysely
    .insertInto('agents')
    .values({
      user_id: userId,
      name,
      description: `${name} does things`,
      guidelines,
      created_at: at(),
      updated_at: at(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

let serviceSeq = 0;
export async function seedAction(
  db: Db,
  action: {
    name: string;
    description: string;
    effect: 'read' | 'write' | 'send';
    schema: object;
    displayName?: string;
  },
): Promise<number> {
  serviceSeq += 1;
  const service = await db.kysely
    .insertInto('services')
    .values({
      provider: 'builtin',
      provider_key: `svc-${serviceSeq}-${action.name}`,
      owner_user_id: null,
      name: `Service ${serviceSeq}`,
      description: 'test service',
      logo: null,
      auth_scheme: 'NO_AUTH',
      created_at: at(),
      updated_at: at(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const row = await db.kysely
    .insertInto('actions')
    .values({
      service_id: service.id,
      name: action.name,
      display_name: action.displayName ?? action.name,
      description: action.description,
      input_schema: JSON.stringify(action.schema),
      effect: action.effect,
      version: null,
      created_at: at(),
      updated_at: at(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Attaches the action to the agent, its owner connected to the action's service (as to use it). */
export async function attach(db: Db, agentId: number, actionId: number, position = 0) {
  await db.kysely
    .insertInto('agent_tools')
    .values({ agent_id: agentId, action_id: actionId, version: null, position })
    .execute();
  const { user_id } = await db.kysely
    .selectFrom('agents')
    .select('user_id')
    .where('id', '=', agentId)
    .executeTakeFirstOrThrow();
  const { service_id } = await db.kysely
    .selectFrom('actions')
    .select('service_id')
    .where('id', '=', actionId)
    .executeTakeFirstOrThrow();
  const connected = await db.kysely
    .selectFrom('connections')
    .select('id')
    .where('user_id', '=', user_id)
    .where('service_id', '=', service_id)
    .executeTakeFirst();
  if (!connected)
    await db.kysely
      .insertInto('connections')
      .values({
        user_id,
        service_id,
        status: 'ACTIVE',
        external_id: null,
        credentials: null,
        created_at: at(),
        updated_at: at(),
      })
      .execute();
}

export const calculatorSchema = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
};
export const noteSchema = {
  type: 'object',
  properties: { title: { type: 'string' }, body: { type: 'string' } },
  required: ['title'],
};
export const emailSchema = {
  type: 'object',
  properties: { to: { type: 'string' }, subject: { type: 'string' }, body: { type: 'string' } },
  required: ['to', 'body'],
};

export interface ExecutorCall {
  userId: number;
  actionId: number;
  args: Record<string, unknown>;
  signal: AbortSignal;
  /** An unattended write's key (absent otherwise). */
  idempotencyKey?: string;
}

/**
 * A tools layer for tests: lists attached tools from the database (as the real one does) and
 * records every execution; `behaviour` decides the result.
 */
export function recordingExecutor(db: Db) {
  const agents = createAgentsService(db, createAuditLog(db));
  const calls: ExecutorCall[] = [];
  const prechecks: Omit<ExecutorCall, 'signal'>[] = [];
  const state: {
    behaviour: (call: ExecutorCall) => Promise<ToolExecutionResult> | ToolExecutionResult;
    /** What the tool would refuse before an approval is asked (none by default). */
    refusal: (call: Omit<ExecutorCall, 'signal'>) => string | undefined;
  } = { behaviour: () => ({ ok: true, data: { done: true } }), refusal: () => undefined };
  const executor: ToolExecutor = {
    listAgentTools: (userId, agentId) => chatToolsOf(agents, userId, agentId),
    async execute(userId, actionId, args, signal, options = {}) {
      const call = {
        userId,
        actionId,
        args,
        signal,
        ...(options.idempotencyKey && { idempotencyKey: options.idempotencyKey }),
      };
      calls.push(call);
      return state.behaviour(call);
    },
    async precheck(userId, actionId, args) {
      const call = { userId, actionId, args };
      prechecks.push(call);
      return state.refusal(call);
    },
  };
  return { executor, calls, prechecks, state };
}

/** A model slot the tests can swap between the offline model and scripted mocks. */
export function switchableModel() {
  const slot: { model: LanguageModelV4 } = { model: createOfflineModel() };
  const model: LanguageModelV4 = {
    specificationVersion: 'v4',
    provider: 'test.switchable',
    modelId: 'switchable',
    supportedUrls: {},
    doGenerate: (options) => slot.model.doGenerate(options),
    doStream: (options) => slot.model.doStream(options),
  };
  const selection: ModelSelection = {
    model,
    id: 'switchable',
    name: 'Switchable test model',
    provider: 'offline',
    modelId: 'switchable',
    isOffline: true,
    label: 'test',
  };
  return { slot, selection };
}

export const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
export const textParts = (text: string, id = 't'): LanguageModelV4StreamPart[] => [
  { type: 'text-start', id },
  { type: 'text-delta', id, delta: text },
  { type: 'text-end', id },
];
export const toolCallPart = (
  toolCallId: string,
  toolName: string,
  input: object,
): LanguageModelV4StreamPart => ({
  type: 'tool-call',
  toolCallId,
  toolName,
  input: JSON.stringify(input),
});
export const finishPart = (reason: 'stop' | 'tool-calls'): LanguageModelV4StreamPart => ({
  type: 'finish',
  finishReason: { unified: reason, raw: undefined },
  usage,
});

/** A mock model whose n-th call streams `script(options, n)`. */
export function scriptedModel(
  script: (options: LanguageModelV4CallOptions, call: number) => LanguageModelV4StreamPart[],
) {
  let n = 0;
  return new MockLanguageModelV4({
    doStream: async (options) => {
      const parts = script(options, n++);
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
}

/** Parses an AI SDK UI message stream (SSE) into its chunks. */
export function uiChunks(payload: string): UIMessageChunk[] {
  return payload
    .split('\n\n')
    .map((event) => event.trim())
    .filter((event) => event.startsWith('data: ') && event !== 'data: [DONE]')
    .map((event) => JSON.parse(event.slice(6)) as UIMessageChunk);
}

export const streamedText = (chunks: UIMessageChunk[]) =>
  chunks.map((c) => (c.type === 'text-delta' ? c.delta : '')).join('');

export interface ChatHeaders extends Record<string, string> {
  cookie: string;
  origin: string;
  'x-requested-with': string;
}

export interface ChatHarness {
  t: TestApp;
  db: Db;
  tools: ReturnType<typeof recordingExecutor>;
  model: ReturnType<typeof switchableModel>;
  /** Signs in through /chainlit/auth/header and returns request headers for state-changing calls. */
  signIn(userId: number, agentId: number): Promise<ChatHeaders>;
}

export const ORIGIN = 'http://cadre.test';

export async function chatHarness(
  env: Record<string, string> = {},
  options: { modelFromConfig?: boolean } & Pick<AppOptions, 'triggers'> = {},
): Promise<ChatHarness> {
  const holder: { tools?: ReturnType<typeof recordingExecutor> } = {};
  const model = switchableModel();
  const lazyExecutor: ToolExecutor = {
    listAgentTools: (u, a) => holder.tools!.executor.listAgentTools(u, a),
    execute: (u, a, args, s, o) => holder.tools!.executor.execute(u, a, args, s, o),
    precheck: (u, a, args) => holder.tools!.executor.precheck!(u, a, args),
  };
  const t = await createTestApp(env, {
    chat: {
      verifyAccessToken: async (token) => {
        const match = /^access-(\d+)$/.exec(token);
        return match ? { id: Number(match[1]) } : null;
      },
      verifyCopilotToken: async (token) => {
        const match = /^copilot-(\d+)-(\d+)$/.exec(token);
        return match ? { userId: Number(match[1]), agentId: Number(match[2]), issuedAt: Date.now() } : null;
      },
      toolExecutor: lazyExecutor,
      modelSelection: options.modelFromConfig ? undefined : model.selection,
    },
    triggers: options.triggers,
  });
  const tools = recordingExecutor(t.db);
  holder.tools = tools;
  return {
    t,
    db: t.db,
    tools,
    model,
    async signIn(userId, agentId) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/chainlit/auth/header',
        headers: { authorization: `Bearer access-${userId}`, 'x-agent-id': String(agentId) },
      });
      if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
      const cookie = res.cookies.find((c) => c.name === 'cadre_chat_session')!;
      return {
        cookie: `cadre_chat_session=${cookie.value}`,
        origin: ORIGIN,
        'x-requested-with': 'cadre-chat',
      };
    },
  };
}

/** The `Cookie` header value of a chat session for the caller's agent, opened as the web app does. */
export async function chatSessionCookie(t: TestApp, auth: Record<string, string>, agentId: number) {
  const session = await t.app.inject({
    method: 'POST',
    url: '/chainlit/auth/header',
    headers: { ...auth, 'x-agent-id': String(agentId) },
  });
  return `cadre_chat_session=${session.cookies.find((c) => c.name === 'cadre_chat_session')!.value}`;
}

/** One chat turn with the caller's agent, as the frame sends it: the response and the text it streamed. */
export async function chatTurnAs(t: TestApp, auth: Record<string, string>, agentId: number, text: string) {
  const headers = {
    cookie: await chatSessionCookie(t, auth, agentId),
    origin: ORIGIN,
    'x-requested-with': 'cadre-chat',
  };
  const res = await t.app.inject({ method: 'POST', url: '/chainlit/chat', headers, payload: { text } });
  return { res, streamed: streamedText(uiChunks(res.body)) };
}

/** Connects the caller to the built-in Calculator; the id of its `evaluate` action. */
export async function connectedCalculator(t: TestApp, auth: Record<string, string>): Promise<number> {
  const services = await t.app.inject({ method: 'GET', url: '/backend/api/v1/services/', headers: auth });
  const calculator = services.json<{ id: number; name: string }[]>().find((s) => s.name === 'Calculator')!;
  const connected = await t.app.inject({
    method: 'POST',
    url: `/backend/api/v1/services/${calculator.id}/register_noauth_service`,
    headers: auth,
  });
  if (connected.statusCode !== 200) throw new Error(`Calculator did not connect: ${connected.body}`);
  const evaluate = await t.db.kysely
    .selectFrom('actions')
    .select('id')
    .where('service_id', '=', calculator.id)
    .where('name', '=', 'evaluate')
    .executeTakeFirstOrThrow();
  return evaluate.id;
}

/**
 * Creates an agent with no tools for the signed-in caller (`auth`) and opens a chat session for it
 * as the web app does; the `Cookie` header value of that session.
 */
export async function talkerChatCookie(t: TestApp, auth: Record<string, string>) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/backend/api/v1/agents/',
    headers: auth,
    payload: { name: 'Talker', description: 'Talks', tool_ids: [] },
  });
  return chatSessionCookie(t, auth, created.json<{ id: number }>().id);
}
