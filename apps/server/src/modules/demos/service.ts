import { createHash, randomBytes } from 'node:crypto';
import type { JSONSchema7 } from '@ai-sdk/provider';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { AttachedTool } from '../agents/index.ts';
import { createToolCatalog } from '../tools/index.ts';
import { DEMOS, isDemoName, type DemoDefinition, type DemoName } from './catalog.ts';
import { createDemoToolProvider } from './provider.ts';
import type { DemoAgents, DemoUsers } from './ports.ts';
import { createDemoRepository } from './repository.ts';

/** The issuer of demo users: no token names it, so a demo user can never use `/backend`. */
export const DEMO_ISSUER = 'urn:cadre:demo';
/** The provider of demo services; each is owned by one demo user. */
export const DEMO_PROVIDER = 'demo';

const hashSession = (value: string) => createHash('sha256').update(value).digest('hex');

/** Activity is recorded at most this often per session, so reads do not each cost a write. */
const TOUCH_INTERVAL_MS = 60_000;

export interface DemoServiceDeps {
  db: Db;
  users: DemoUsers;
  agents: DemoAgents;
  config: Config['demos'];
  now: () => Date;
}

/**
 * The demos: visitor sessions (each its own short-lived demo user with a demo agent and a private
 * copy of the writable data), their expiry, and the tool executor the demo chat runs with.
 */
export function createDemoService(deps: DemoServiceDeps) {
  const repo = createDemoRepository(deps.db);
  const toolCatalog = createToolCatalog(deps.db);
  const provider = createDemoToolProvider({ db: deps.db, now: deps.now });
  const idleMs = deps.config.idleMinutes * 60_000;
  const maxMs = deps.config.maxHours * 3_600_000;

  const deleteDemoUsers = (ids: number[]) => deps.users.deleteIssuedBy(DEMO_ISSUER, ids);

  async function sweep(): Promise<number> {
    const now = deps.now();
    const idleBefore = new Date(now.getTime() - idleMs).toISOString();
    return deleteDemoUsers(await repo.expiredUsers(idleBefore, now.toISOString()));
  }

  /** A demo user, its own copy of the demo's service and actions, and its agent with them attached. */
  async function createVisitor(definition: DemoDefinition, trx: Kysely<Database>) {
    const userId = await deps.users.create(
      { issuer: DEMO_ISSUER, subject: randomBytes(16).toString('hex'), name: 'Demo visitor' },
      trx,
    );
    // The demo service is owned by the demo user: no real user ever sees or attaches it.
    const { actionIds } = await toolCatalog.provisionPrivateService(
      DEMO_PROVIDER,
      userId,
      definition.service,
      definition.tools.map((t) => t.definition),
      trx,
    );
    const agentId = await deps.agents.provision(userId, definition.agent, actionIds, trx);
    return { userId, agentId };
  }

  /** Only tools of the visitor's own demo service; nothing of the shared catalog or other users. */
  async function demoTools(userId: number, agentId: number): Promise<AttachedTool[]> {
    const tools = await deps.agents.listTools(userId, agentId);
    return tools.filter((t) => t.service.provider === DEMO_PROVIDER && t.service.ownerUserId === userId);
  }

  /** One of the tools of the visitor's own demo agent. */
  async function sessionTool(userId: number, actionId: number) {
    const session = await repo.findSessionOfUser(userId);
    return session && (await demoTools(userId, session.agent_id)).find((t) => t.actionId === actionId);
  }

  /** The chat runtime's tool executor for demo sessions (see chat/runtime/ports.ts). */
  const executor = {
    async listAgentTools(userId: number, agentId: number) {
      return (await demoTools(userId, agentId)).map((t) => ({
        actionId: t.actionId,
        name: t.name,
        displayName: t.displayName,
        description: t.description,
        inputSchema: t.inputSchema as JSONSchema7,
        effect: t.effect,
      }));
    },
    async precheck(userId: number, actionId: number, args: Record<string, unknown>) {
      const tool = await sessionTool(userId, actionId);
      return tool && provider.precheck(userId, tool.service.key, tool.name, args);
    },
    async execute(userId: number, actionId: number, args: Record<string, unknown>, signal: AbortSignal) {
      if (signal.aborted) return { ok: false as const, error: 'Stopped.', code: 'aborted' };
      const tool = await sessionTool(userId, actionId);
      if (!tool) {
        return { ok: false as const, error: 'This tool is not available in this demo.', code: 'not_found' };
      }
      const result = await provider.execute(
        { userId },
        { id: 0, key: tool.service.key, authScheme: 'NO_AUTH', metadata: {} },
        { name: tool.name, version: null },
        args,
        null,
      );
      return result.ok
        ? { ok: true as const, data: result.data }
        : { ok: false as const, error: result.error, code: result.code };
    },
  };

  return {
    executor,
    sweep,

    /** Starts a visitor's demo: a fresh demo user, agent, tools and data. Returns the cookie value. */
    async login(demo: DemoName, clientKey: string): Promise<{ value: string; maxAgeSeconds: number }> {
      await sweep();
      const value = randomBytes(32).toString('base64url');
      const now = deps.now();
      await repo.createSession(
        { idHash: hashSession(value), demo, clientKey, now, expiresAt: new Date(now.getTime() + maxMs) },
        (trx) => createVisitor(DEMOS[demo], trx),
      );
      return { value, maxAgeSeconds: Math.floor(maxMs / 1000) };
    },

    /** Ends a visitor's demo and deletes everything it created. */
    async logout(value: string) {
      const session = await repo.findSession(hashSession(value));
      if (session) await deleteDemoUsers([session.user_id]);
    },

    /** The demo user and agent of a cookie value; an expired session is deleted on the spot. */
    async resolve(value: string): Promise<{ userId: number; agentId: number } | undefined> {
      const idHash = hashSession(value);
      const session = await repo.findSession(idHash);
      if (!session) return undefined;
      const now = deps.now();
      const idleFor = now.getTime() - Date.parse(session.last_seen_at);
      if (idleFor >= idleMs || Date.parse(session.expires_at) <= now.getTime()) {
        await deleteDemoUsers([session.user_id]);
        return undefined;
      }
      if (idleFor >= TOUCH_INTERVAL_MS) await repo.touchSession(idHash, now.toISOString());
      return { userId: session.user_id, agentId: session.agent_id };
    },

    async suggestedPrompts(userId: number, agentId: number): Promise<string[] | undefined> {
      const session = await repo.findSessionOfUser(userId);
      return session?.agent_id === agentId && isDemoName(session.demo)
        ? DEMOS[session.demo].suggestedPrompts
        : undefined;
    },
  };
}

export type DemoService = ReturnType<typeof createDemoService>;
