import fs from 'node:fs';
import path from 'node:path';
import { CHAT_CSRF_HEADER, CHAT_CSRF_VALUE, CHAT_SESSION_COOKIE, type UserExport } from '@cadre/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database.ts';
import { attach, ORIGIN, seedAction, uiChunks } from './support/chat-fixtures.ts';
import { multipartBody } from './support/knowledge-files.ts';
import { startMcpServer, type TestMcpServer } from './support/mcp-server.ts';
import { startGithubOAuthServer, type GithubOAuthServer } from './support/oauth2-server.ts';
import {
  authorize,
  authorizeUrl,
  Browser,
  signUpAndSignIn,
  tokenRequest,
  uidFrom,
} from './support/oidc-flow.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';

const API = '/backend/api/v1';
const PASSWORD = 'a long enough password';

/** Every table of the schema, read from the database itself (not from a list kept by hand). */
async function allTables(db: Db): Promise<string[]> {
  const query =
    db.dialect === 'sqlite'
      ? sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`
      : sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`;
  return (await query.execute(db.kysely)).rows.map((r) => r.name).sort();
}

interface Traces {
  /** The user's id (users.id and every *user_id column). */
  id: number;
  /** Strings only this user's data contains: email, subjects, names and texts they wrote. */
  texts: string[];
  /** Ids of rows the user owned, by the column name that refers to them elsewhere. */
  owned: Record<string, (string | number)[]>;
}

/** Where in the database the user still appears: `table.column` for every hit. */
async function findTraces(db: Db, traces: Traces): Promise<string[]> {
  const hits = new Set<string>();
  for (const table of await allTables(db)) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db.kysely))
      .rows;
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        const at = `${table}.${column}`;
        if (/(^|_)user_id$/.test(column) && Number(value) === traces.id) hits.add(at);
        if (table === 'users' && column === 'id' && Number(value) === traces.id) hits.add(at);
        if (table === 'audit_events' && column === 'object_id' && row.object_type === 'user') {
          if (value === String(traces.id)) hits.add(at);
        }
        if (table === 'rate_limits' && column === 'key' && String(value).endsWith(`:${traces.id}`)) {
          hits.add(at);
        }
        if ((traces.owned[column] ?? []).some((id) => String(id) === String(value))) hits.add(at);
        if (typeof value === 'string' && traces.texts.some((text) => value.includes(text))) hits.add(at);
      }
    }
  }
  return [...hits].sort();
}

describe(`P1: export and delete are complete, on ${testDatabaseKind()}`, () => {
  let oauth: GithubOAuthServer;
  let mcp: TestMcpServer;
  let t: TestApp;

  beforeAll(async () => {
    oauth = await startGithubOAuthServer();
    mcp = await startMcpServer();
    t = await createTestApp({ EGRESS_ALLOW_PRIVATE: '127.0.0.1', ...oauth.env });
    await t.app.triggers.stop();
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([oauth?.close(), mcp?.close()]);
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: object, payload?: unknown) =>
    t.app.inject({
      method,
      url: `${API}${url}`,
      headers: headers as Record<string, string>,
      payload: payload as object,
    });

  const signUp = (name: string, email: string) =>
    signUpAndSignIn(t.app, t.config, { name, email, password: PASSWORD });

  it('P1: a user who used every feature exports each kind of data; deletion leaves no trace in any table and the old refresh token fails', async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const email = `zelda-${tag}@example.com`;
    // Bob's account comes first, so he is the workspace's admin and Zelda may delete her own.
    const bob = await signUp('Bob', `bob-${tag}@example.com`);
    const alice = await signUp(`Zelda ${tag}`, email);

    // A failed sign-in leaves counters keyed by the account.
    const stranger = new Browser(t.app, new URL(t.config.publicUrl).host, '10.9.8.7');
    const started = await stranger.request(
      'GET',
      authorizeUrl(t.config, { code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' }),
    );
    const uid = uidFrom(String(started.headers.location));
    expect(
      (
        await stranger.request('POST', `/idp/interaction/${uid}/login`, {
          email,
          password: 'wrong password!',
        })
      ).statusCode,
    ).toBe(401);

    const services = (await call('GET', '/services/', alice.auth)).json<{ id: number; name: string }[]>();
    const serviceId = (name: string) => services.find((s) => s.name === name)!.id;
    for (const name of ['Notes', 'Calendar', 'Calculator']) {
      expect(
        (await call('POST', `/services/${serviceId(name)}/register_noauth_service`, alice.auth)).statusCode,
      ).toBe(200);
    }
    // An OAuth connection started and never finished: its state is kept for 10 minutes.
    expect(
      (await call('POST', `/services/${serviceId('GitHub')}/register_auth_service`, alice.auth)).statusCode,
    ).toBe(200);
    const own = await call('POST', '/services/custom_mcp', alice.auth, {
      name: `Zelda tools ${tag}`,
      url: mcp.url,
    });
    expect(own.statusCode).toBe(201);
    const ownActions = await t.db.kysely
      .selectFrom('actions')
      .select('id')
      .where('service_id', '=', own.json().id)
      .execute();

    const actionId = async (service: string, name: string) =>
      (
        await t.db.kysely
          .selectFrom('actions')
          .select('id')
          .where('service_id', '=', serviceId(service))
          .where('name', '=', name)
          .executeTakeFirstOrThrow()
      ).id;
    const memo = await seedAction(t.db, {
      name: 'post_memo',
      description: 'Posts a memo to the team board',
      effect: 'write',
      schema: { type: 'object', properties: {} },
    });
    const agent = await call(
      'POST',
      '/agents/',
      { ...alice.auth, 'idempotency-key': `key-${tag}` },
      {
        name: `Zelda agent ${tag}`,
        description: 'mine',
        tool_ids: [await actionId('Calculator', 'evaluate'), ownActions[0]!.id],
      },
    );
    expect(agent.statusCode).toBe(201);
    const agentId = agent.json<{ id: number }>().id;
    await attach(t.db, agentId, memo, 5);
    expect((await call('POST', `/agents/${agentId}/triggers/daily`, alice.auth, { n: 1 })).statusCode).toBe(
      202,
    );
    // A trigger secret: exported as the time it was made, never the secret; deleted with the user.
    const triggerSecret = await call('POST', `/agents/${agentId}/trigger-secret`, alice.auth);
    expect(triggerSecret.statusCode).toBe(201);
    // A personal API key: exported without the key or its hash, deleted with the user.
    const apiKey = await call('POST', '/api-keys', alice.auth, {
      name: `Key ${tag}`,
      scopes: ['agents:read'],
    });
    expect(apiKey.statusCode).toBe(201);
    expect(
      await t.app.tools.executeAction(alice.id, await actionId('Notes', 'create_note'), {
        title: `Note ${tag}`,
        body: 'private',
      }),
    ).toMatchObject({ ok: true });
    expect(
      await t.app.tools.executeAction(alice.id, await actionId('Calendar', 'create_event'), {
        title: `Dentist ${tag}`,
        start: '2030-01-01T10:00:00Z',
        end: '2030-01-01T11:00:00Z',
      }),
    ).toMatchObject({ ok: true });

    // A chat in the frame: a session, a turn, a tool call waiting for approval.
    const opened = await t.app.inject({
      method: 'POST',
      url: '/chainlit/auth/header',
      headers: { ...alice.auth, 'x-agent-id': String(agentId) },
    });
    const session = opened.cookies.find((c) => c.name === CHAT_SESSION_COOKIE)!.value;
    const turn = await t.app.inject({
      method: 'POST',
      url: '/chainlit/chat',
      headers: {
        cookie: `${CHAT_SESSION_COOKIE}=${session}`,
        origin: ORIGIN,
        [CHAT_CSRF_HEADER]: CHAT_CSRF_VALUE,
      },
      payload: { text: 'Post memo' },
    });
    expect(uiChunks(turn.body).some((c) => c.type === 'tool-approval-request')).toBe(true);
    const threadId = String(turn.headers['x-thread-id']);
    // A thumbs down on the answer, with a comment.
    const answer = await t.db.kysely
      .selectFrom('messages')
      .select('id')
      .where('thread_id', '=', threadId)
      .where('role', '=', 'assistant')
      .executeTakeFirstOrThrow();
    const rated = await t.app.inject({
      method: 'PUT',
      url: `/chainlit/messages/${answer.id}/feedback`,
      headers: {
        cookie: `${CHAT_SESSION_COOKIE}=${session}`,
        origin: ORIGIN,
        [CHAT_CSRF_HEADER]: CHAT_CSRF_VALUE,
      },
      payload: { rating: 'down', comment: `Rated ${tag}` },
    });
    expect(rated.statusCode).toBe(200);
    // "Allow without asking" for the memo tool, chosen in the agent editor.
    expect(
      (await call('PUT', `/agents/${agentId}/tool-permissions/${memo}`, alice.auth, { mode: 'allow' }))
        .statusCode,
    ).toBe(200);
    // A copilot run's call of its host page and a trigger run's write kept under its idempotency
    // key: written as those runs write them (their own tests drive them end to end).
    const now = new Date().toISOString();
    await t.db.kysely
      .insertInto('host_calls')
      .values({
        id: `call-${tag}`,
        user_id: alice.id,
        agent_id: agentId,
        run_id: `run-${tag}`,
        name: 'get_page_title',
        status: 'answered',
        result: JSON.stringify({ title: `Page ${tag}` }),
        created_at: now,
        expires_at: now,
      })
      .execute();
    await t.db.kysely
      .insertInto('tool_executions')
      .values({
        idempotency_key: `trigger-${tag}`,
        user_id: alice.id,
        result: JSON.stringify({ ok: true }),
        created_at: now,
      })
      .execute();

    // A knowledge file: its row, its bytes and its passages go with the user.
    const fileForm = await multipartBody([
      {
        field: 'file',
        name: `Zelda file ${tag}.md`,
        bytes: `Knowledge ${tag}: the vault code is kept offline.`,
      },
    ]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `${API}/agents/${agentId}/files`,
      headers: { ...alice.auth, ...fileForm.headers },
      payload: fileForm.payload,
    });
    expect(uploaded.statusCode).toBe(201);
    const fileId = uploaded.json<{ id: string }>().id;

    const exported = await call('GET', '/users/me/export', alice.auth);
    expect(exported.statusCode).toBe(200);
    const data = exported.json<UserExport>();
    const counts = Object.fromEntries(
      Object.entries(data).map(([key, value]) => [
        key,
        Array.isArray(value) ? value.length : value === null ? 0 : 1,
      ]),
    );
    for (const key of Object.keys(data)) expect(counts[key], `export has ${key}`).toBeGreaterThan(0);
    expect(data.tool_calls).toEqual([
      expect.objectContaining({ thread_id: threadId, tool_name: 'post_memo', state: 'approval-requested' }),
    ]);
    expect(data.approvals).toEqual([
      expect.objectContaining({ thread_id: threadId, action_id: memo, status: 'pending' }),
    ]);
    expect(data.chat_runs).toEqual([expect.objectContaining({ thread_id: threadId })]);
    // The turn's run, waiting for approval, with what it used.
    expect(data.usage).toEqual([
      expect.objectContaining({
        thread_id: threadId,
        agent_id: agentId,
        status: 'awaiting_approval',
        tool_calls: 1,
      }),
    ]);
    expect(data.messages.find((m) => m.id === answer.id)?.feedback).toMatchObject({
      rating: 'down',
      comment: `Rated ${tag}`,
    });
    expect(data.host_calls).toEqual([expect.objectContaining({ result: { title: `Page ${tag}` } })]);
    expect(data.notes).toEqual([expect.objectContaining({ title: `Note ${tag}` })]);
    expect(data.knowledge_files).toEqual([
      expect.objectContaining({
        id: fileId,
        name: `Zelda file ${tag}.md`,
        download: `/backend/api/v1/agents/${agentId}/files/${fileId}/content`,
      }),
    ]);
    expect(data.knowledge_passages).toEqual([
      { file_id: fileId, ordinal: 1, page: null, text: `Knowledge ${tag}: the vault code is kept offline.` },
    ]);
    expect(data.calendar_events).toEqual([expect.objectContaining({ title: `Dentist ${tag}` })]);
    expect(data.sessions.map((s) => s.kind).sort()).toEqual(['chat', 'identity']);
    expect(data.identity_account).toEqual({ email, name: `Zelda ${tag}`, created_at: expect.any(String) });
    expect(exported.body).not.toMatch(/scrypt|password_hash|credentials|binding_hash|id_hash/);
    expect(data.trigger_secrets).toEqual([{ agent_id: agentId, created_at: expect.any(String) }]);
    expect(exported.body).not.toContain(triggerSecret.json<{ secret: string }>().secret.slice(6));

    const threads = await t.db.kysely
      .selectFrom('threads')
      .select('id')
      .where('user_id', '=', alice.id)
      .execute();
    const traces: Traces = {
      id: alice.id,
      texts: [
        email,
        alice.subject,
        `Zelda ${tag}`,
        `Zelda agent ${tag}`,
        `Note ${tag}`,
        `Dentist ${tag}`,
        `key-${tag}`,
        `Page ${tag}`,
        `trigger-${tag}`,
        `Rated ${tag}`,
        `Knowledge ${tag}`,
        `Zelda file ${tag}`,
      ],
      owned: {
        agent_id: [agentId],
        thread_id: threads.map((r) => r.id),
        service_id: [own.json().id],
        action_id: ownActions.map((a) => a.id),
        file_id: [fileId],
      },
    };
    // The walk sees the user everywhere they left something, so an empty walk below means gone.
    expect(await findTraces(t.db, traces)).toEqual(
      expect.arrayContaining([
        'agents.user_id',
        'approvals.user_id',
        'audit_events.user_id',
        'calendar_events.user_id',
        'chat_runs.user_id',
        'chat_sessions.user_id',
        'connections.user_id',
        'host_calls.user_id',
        'idempotency_keys.user_id',
        'idp_accounts.email',
        'idp_payloads.payload',
        'knowledge_file_contents.file_id',
        'knowledge_files.user_id',
        'knowledge_passages.user_id',
        'list_versions.user_id',
        'message_feedback.user_id',
        'messages.thread_id',
        'notes.user_id',
        'oauth_states.user_id',
        'rate_limits.key',
        'services.owner_user_id',
        'threads.user_id',
        'tool_executions.user_id',
        'trigger_events.user_id',
        'trigger_secrets.user_id',
        'turn_usage.user_id',
        'users.id',
      ]),
    );

    expect((await call('DELETE', '/users/me', alice.auth)).statusCode).toBe(204);
    if (t.db.dialect === 'sqlite') {
      // No copy of the deleted rows stays readable in the write-ahead log.
      const wal = path.join(t.dataDir, 'cadre.sqlite-wal');
      const log = fs.existsSync(wal) ? fs.readFileSync(wal) : Buffer.alloc(0);
      expect(log.includes(email)).toBe(false);
      expect(log.length).toBe(0);
    }
    expect(await findTraces(t.db, traces)).toEqual([]);

    // The refresh token issued before the deletion is dead, and so is the password.
    const refreshed = await tokenRequest(t.app, t.config, {
      grant_type: 'refresh_token',
      refresh_token: alice.refreshToken,
    });
    expect(refreshed).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    await expect(authorize(t.app, t.config, { email, password: PASSWORD })).rejects.toThrow(
      /sign-in failed: 401/,
    );

    // Bob keeps everything.
    expect(
      (await call('GET', '/users/me/export', bob.auth)).json<UserExport>().identity_account,
    ).toMatchObject({ name: 'Bob' });
    const bobRefresh = await tokenRequest(t.app, t.config, {
      grant_type: 'refresh_token',
      refresh_token: bob.refreshToken,
    });
    expect(bobRefresh.status).toBe(200);
  });
});
