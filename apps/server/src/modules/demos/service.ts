import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { selectAgentTools } from '../chat/repository.ts';
import type { ToolExecutor } from '../chat/runtime/ports.ts';
import { DEMOS, isDemoName, type DemoName } from './catalog.ts';
import { createDemoToolProvider } from './provider.ts';
import { createDemoRepository, DEMO_PROVIDER } from './repository.ts';

const hashSession = (value: string) => createHash('sha256').update(value).digest('hex');

/** Activity is recorded at most this often per session, so reads do not each cost a write. */
const TOUCH_INTERVAL_MS = 60_000;

export interface DemoServiceDeps {
  db: Db;
  config: Config['demos'];
  now: () => Date;
}

/**
 * The demos: visitor sessions (each its own short-lived demo user with a demo agent and a private
 * copy of the writable data), their expiry, and the tool executor the demo chat runs with.
 */
export function createDemoService(deps: DemoServiceDeps) {
  const repo = createDemoRepository(deps.db);
  const provider = createDemoToolProvider({ db: deps.db, now: deps.now });
  const idleMs = deps.config.idleMinutes * 60_000;
  const maxMs = deps.config.maxHours * 3_600_000;

  async function sweep(): Promise<number> {
    const now = deps.now();
    return repo.deleteExpired(new Date(now.getTime() - idleMs).toISOString(), now.toISOString());
  }

  /** Only tools of the visitor's own demo service; nothing of the shared catalog or other users. */
  const executor: ToolExecutor = {
    listAgentTools: (userId, agentId) =>
      selectAgentTools(deps.db.kysely, userId, agentId, (query) =>
        query.where('services.provider', '=', DEMO_PROVIDER).where('services.owner_user_id', '=', userId),
      ),
    async execute(userId, actionId, args, signal) {
      if (signal.aborted) return { ok: false, error: 'Stopped.', code: 'aborted' };
      const action = await repo.findDemoAction(userId, actionId);
      if (!action) return { ok: false, error: 'This tool is not available in this demo.', code: 'not_found' };
      const result = await provider.execute(
        { userId },
        { id: 0, key: action.provider_key, authScheme: 'NO_AUTH', metadata: {} },
        { name: action.name, version: null },
        args,
        null,
      );
      return result.ok
        ? { ok: true, data: result.data }
        : { ok: false, error: result.error, code: result.code };
    },
  };

  return {
    executor,
    sweep,

    /** Starts a visitor's demo: a fresh demo user, agent, tools and data. Returns the cookie value. */
    async login(demo: DemoName, clientKey: string): Promise<{ value: string; maxAgeSeconds: number }> {
      await sweep();
      const definition = DEMOS[demo];
      const value = randomBytes(32).toString('base64url');
      const now = deps.now();
      await repo.createDemoSession({
        idHash: hashSession(value),
        subject: randomBytes(16).toString('hex'),
        demo,
        clientKey,
        agent: definition.agent,
        service: definition.service,
        actions: definition.tools.map((t) => t.definition),
        now,
        expiresAt: new Date(now.getTime() + maxMs),
      });
      return { value, maxAgeSeconds: Math.floor(maxMs / 1000) };
    },

    /** Ends a visitor's demo and deletes everything it created. */
    async logout(value: string) {
      const session = await repo.findSession(hashSession(value));
      if (session) await repo.deleteDemoUser(session.user_id);
    },

    /** The demo user and agent of a cookie value; an expired session is deleted on the spot. */
    async resolve(value: string): Promise<{ userId: number; agentId: number } | undefined> {
      const idHash = hashSession(value);
      const session = await repo.findSession(idHash);
      if (!session) return undefined;
      const now = deps.now();
      const idleFor = now.getTime() - Date.parse(session.last_seen_at);
      if (idleFor >= idleMs || Date.parse(session.expires_at) <= now.getTime()) {
        await repo.deleteDemoUser(session.user_id);
        return undefined;
      }
      if (idleFor >= TOUCH_INTERVAL_MS) await repo.touchSession(idHash, now.toISOString());
      return { userId: session.user_id, agentId: session.agent_id };
    },

    async suggestedPrompts(userId: number, agentId: number): Promise<string[] | undefined> {
      const session = await repo.findSessionByUser(userId, agentId);
      return session && isDemoName(session.demo) ? DEMOS[session.demo].suggestedPrompts : undefined;
    },
  };
}

export type DemoService = ReturnType<typeof createDemoService>;
