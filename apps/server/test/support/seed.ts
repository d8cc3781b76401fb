import type { Db } from '../../src/db/database.ts';

/**
 * Direct-to-database seeding for tests of modules that read rows other modules write (services,
 * actions, connections, threads). Values are plausible shapes, not canned answers.
 */
const now = () => new Date().toISOString();

export async function seedService(
  db: Db,
  options: { name: string; ownerUserId?: number; actions?: number; logo?: string | null },
): Promise<{ serviceId: number; actionIds: number[] }> {
  const { id: serviceId } = await db.kysely
    .insertInto('services')
    .values({
      provider: options.ownerUserId ? 'mcp' : 'builtin',
      provider_key: `${options.name.toLowerCase().replace(/\W+/g, '-')}-${crypto.randomUUID().slice(0, 8)}`,
      owner_user_id: options.ownerUserId ?? null,
      name: options.name,
      description: `${options.name} tools`,
      logo:
        options.logo === undefined ? `https://logos.example/${options.name.toLowerCase()}.svg` : options.logo,
      auth_scheme: 'NO_AUTH',
      created_at: now(),
      updated_at: now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const actionIds: number[] = [];
  for (let i = 0; i < (options.actions ?? 3); i++) {
    const { id } = await db.kysely
      .insertInto('actions')
      .values({
        service_id: serviceId,
        name: `${options.name.toUpperCase()}_ACTION_${i}`,
        display_name: `${options.name} action ${i}`,
        description: `Does thing ${i} in ${options.name}`,
        input_schema: '{"type":"object"}',
        effect: i % 2 ? 'write' : 'read',
        version: '1.0.0',
        created_at: now(),
        updated_at: now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    actionIds.push(id);
  }
  return { serviceId, actionIds };
}

export async function seedConnection(db: Db, userId: number, serviceId: number, credentials: string | null) {
  const { id } = await db.kysely
    .insertInto('connections')
    .values({
      user_id: userId,
      service_id: serviceId,
      status: 'ACTIVE',
      external_id: `ca_${crypto.randomUUID()}`,
      credentials,
      created_at: now(),
      updated_at: now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function seedThread(db: Db, userId: number, agentId: number, messages: string[]) {
  const threadId = crypto.randomUUID();
  await db.kysely
    .insertInto('threads')
    .values({
      id: threadId,
      user_id: userId,
      agent_id: agentId,
      name: 'A chat',
      created_at: now(),
      updated_at: now(),
    })
    .execute();
  for (const [i, text] of messages.entries()) {
    await db.kysely
      .insertInto('messages')
      .values({
        id: crypto.randomUUID(),
        thread_id: threadId,
        role: i % 2 ? 'assistant' : 'user',
        parts: JSON.stringify([{ type: 'text', text }]),
        status: 'complete',
        created_at: new Date(Date.now() + i).toISOString(),
      })
      .execute();
  }
  return threadId;
}

/** Row counts of every table, to prove a request changed nothing. */
export async function tableCounts(db: Db, except: string[] = []): Promise<Record<string, number>> {
  const tables = [
    'users',
    'agents',
    'services',
    'actions',
    'agent_tools',
    'agent_versions',
    'connections',
    'oauth_states',
    'threads',
    'messages',
    'approvals',
    'trigger_events',
    'webhook_deliveries',
    'audit_events',
    'rate_limits',
    'settings',
    'knowledge_files',
    'knowledge_file_contents',
    'knowledge_passages',
    'knowledge_file_spans',
    'knowledge_object_deletions',
  ] as const;
  const counts: Record<string, number> = {};
  for (const table of tables) {
    if (except.includes(table)) continue;
    const row = await db.kysely
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}
