import { APPROVAL_EXPIRED_DETAIL, toolPermissionListSchema } from '@cadre/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  attach,
  calculatorSchema,
  chatHarness,
  finishPart,
  noteSchema,
  scriptedModel,
  seedAction,
  textParts,
  toolCallPart,
  uiChunks,
  type ChatHarness,
} from './support/chat-fixtures.ts';
import { testDatabaseKind } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

/**
 * Approvals that never lie: a card carries its expiry and a late decision says it expired and runs
 * nothing; "Always allow for this agent" (from the card or the editor) lets a write tool run with
 * no card, audited, until it is switched back; nobody else can read or set that choice.
 */
describe(`approval expiry and tool permissions on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let h: ChatHarness;
  let alice: { id: number; auth: { authorization: string } };
  let bob: { id: number; auth: { authorization: string } };
  let agent: number;
  let note: number;
  let add: number;
  let chat: Record<string, string>;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    h = await chatHarness(issuer.env);
    alice = await signInAs(h.t, issuer, { sub: 'alice', email: 'alice@example.com' });
    bob = await signInAs(h.t, issuer, { sub: 'bob', email: 'bob@example.com' });
    note = await seedAction(h.db, {
      name: 'notes_create',
      description: 'Create a note',
      effect: 'write',
      schema: noteSchema,
      displayName: 'Create note',
    });
    add = await seedAction(h.db, {
      name: 'calculator_add',
      description: 'Add',
      effect: 'read',
      schema: calculatorSchema,
    });
    const created = await h.t.app.inject({
      method: 'POST',
      url: '/backend/api/v1/agents/',
      headers: alice.auth,
      payload: { name: 'Desk', description: 'Takes notes', tool_ids: [note, add] },
    });
    agent = created.json<{ id: number }>().id;
    chat = await h.signIn(alice.id, agent);
  });
  afterAll(async () => {
    await h?.t.close();
    await issuer?.close();
  });
  beforeEach(() => {
    h.tools.calls.length = 0;
    // Each turn asks for one note, then (once the note's result is in) says it is done.
    h.model.slot.model = scriptedModel((options) =>
      options.prompt.at(-1)?.role === 'user'
        ? [
            toolCallPart(`call-${crypto.randomUUID()}`, 'notes_create', { title: 'Milk' }),
            finishPart('tool-calls'),
          ]
        : [...textParts('Noted.'), finishPart('stop')],
    );
  });

  const turn = async (threadId?: string) => {
    const res = await h.t.app.inject({
      method: 'POST',
      url: '/chainlit/chat',
      headers: chat,
      payload: { text: 'note milk', threadId },
    });
    return { chunks: uiChunks(res.body), threadId: String(res.headers['x-thread-id']) };
  };
  const approvalIn = (chunks: ReturnType<typeof uiChunks>) =>
    chunks.find((c) => c.type === 'tool-approval-request') as
      | {
          approvalId: string;
          toolCallId: string;
          approvalDescriptor: { expiresAt: string; expiresInMs: number };
        }
      | undefined;
  const decide = (approvalId: string, payload: object = {}) =>
    h.t.app.inject({
      method: 'POST',
      url: `/chainlit/approvals/${approvalId}/approve`,
      headers: chat,
      payload,
    });
  const permissionsUrl = (agentId = agent) => `/backend/api/v1/agents/${agentId}/tool-permissions`;
  const permissions = async (auth = alice.auth) => {
    const res = await h.t.app.inject({ method: 'GET', url: permissionsUrl(), headers: auth });
    return { status: res.statusCode, body: res.json() };
  };
  const setPermission = (mode: unknown, actionId = note, auth = alice.auth, agentId = agent) =>
    h.t.app.inject({
      method: 'PUT',
      url: `${permissionsUrl(agentId)}/${actionId}`,
      headers: auth,
      payload: { mode },
    });
  const auditActions = async () =>
    (
      await h.db.kysely
        .selectFrom('audit_events')
        .select(['action', 'detail'])
        .where('user_id', '=', alice.id)
        .orderBy('id')
        .execute()
    ).map((e) => ({ action: e.action, detail: JSON.parse(e.detail ?? 'null') as Record<string, unknown> }));

  it('sends the expiry with the card; a late decision answers that it expired and runs nothing', async () => {
    const { chunks, threadId } = await turn();
    const request = approvalIn(chunks)!;
    expect(request.approvalDescriptor.expiresInMs).toBe(15 * 60 * 1000);
    expect(Date.parse(request.approvalDescriptor.expiresAt)).toBeGreaterThan(Date.now() + 14 * 60 * 1000);

    await h.db.kysely
      .updateTable('approvals')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', request.approvalId)
      .execute();
    // A reload shows the card as expired (no time left), before and after anyone tried it.
    const reload = async () => {
      const res = await h.t.app.inject({
        method: 'GET',
        url: `/chainlit/threads/${threadId}/messages`,
        headers: chat,
      });
      const parts = res
        .json<{ messages: { parts: Record<string, unknown>[] }[] }>()
        .messages.flatMap((m) => m.parts);
      return parts.find((p) => p.toolCallId === request.toolCallId) as {
        state: string;
        approval: { descriptor: { expiresInMs: number } };
      };
    };
    expect(await reload()).toMatchObject({
      state: 'approval-requested',
      approval: { descriptor: { expiresInMs: 0 } },
    });

    const late = await decide(request.approvalId, { toolCallId: request.toolCallId });
    expect(late.statusCode).toBe(410);
    expect(late.json()).toEqual({ detail: APPROVAL_EXPIRED_DETAIL, code: 'expired' });
    const again = await decide(request.approvalId);
    expect(again.statusCode).toBe(410);
    expect(again.json()).toEqual({ detail: APPROVAL_EXPIRED_DETAIL, code: 'expired' });
    expect(h.tools.calls).toEqual([]);
    expect((await reload()).approval.descriptor.expiresInMs).toBe(0);
  });

  it('a card lapsed by the next turn answers that it expired, not that a connection did', async () => {
    const { chunks, threadId } = await turn();
    const first = approvalIn(chunks)!;
    await turn(threadId);
    const res = await decide(first.approvalId);
    expect(res.statusCode).toBe(410);
    expect(res.json()).toEqual({ detail: APPROVAL_EXPIRED_DETAIL, code: 'expired' });
    expect(h.tools.calls).toEqual([]);
  });

  it('"Always allow" on the card runs this call and skips the card next time, audited; the editor revokes it', async () => {
    expect(toolPermissionListSchema.parse((await permissions()).body).data).toEqual([
      {
        action_id: note,
        display_name: 'Create note',
        app_name: expect.any(String),
        effect: 'write',
        mode: 'ask',
        source: null,
        allowed_at: null,
      },
    ]);

    const request = approvalIn((await turn()).chunks)!;
    const approved = await decide(request.approvalId, { toolCallId: request.toolCallId, alwaysAllow: true });
    expect(approved.statusCode).toBe(200);
    expect(h.tools.calls).toHaveLength(1);
    expect((await permissions()).body.data).toEqual([
      expect.objectContaining({
        action_id: note,
        mode: 'allow',
        source: 'chat',
        allowed_at: expect.any(String),
      }),
    ]);

    // The next call runs at once through the executor, with no card, and the run says so in the audit.
    const next = (await turn()).chunks;
    expect(approvalIn(next)).toBeUndefined();
    expect(next).toContainEqual(
      expect.objectContaining({ type: 'tool-output-available', output: { done: true } }),
    );
    expect(h.tools.calls).toHaveLength(2);
    expect(h.tools.calls[1]).toMatchObject({ userId: alice.id, actionId: note, args: { title: 'Milk' } });
    const audit = await auditActions();
    expect(audit).toContainEqual({
      action: 'agent.tool_permission.update',
      detail: { action_id: note, mode: 'allow', source: 'chat', approval_id: request.approvalId },
    });
    expect(
      audit.filter((e) => e.action === 'chat.tool.executed' && e.detail.allowedWithoutAsking),
    ).toHaveLength(1);

    // Switched back in the editor: audited, and the card comes back.
    const revoked = await setPermission('ask');
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({ action_id: note, mode: 'ask', source: null });
    expect(await auditActions()).toContainEqual({
      action: 'agent.tool_permission.update',
      detail: { action_id: note, mode: 'ask', source: 'editor' },
    });
    expect(approvalIn((await turn()).chunks)).toBeDefined();
    expect(h.tools.calls).toHaveLength(2);
  });

  it('the editor allows a tool; detaching the tool takes the choice with it; the export lists it', async () => {
    const allowed = await setPermission('allow');
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json()).toMatchObject({ mode: 'allow', source: 'editor' });
    // Setting the mode it already has changes nothing and writes no second event.
    const before = (await auditActions()).length;
    expect((await setPermission('allow')).statusCode).toBe(200);
    expect((await auditActions()).length).toBe(before);

    const exported = await h.t.app.inject({
      method: 'GET',
      url: '/backend/api/v1/users/me/export',
      headers: alice.auth,
    });
    expect(exported.json<{ tool_permissions: unknown[] }>().tool_permissions).toEqual([
      { agent_id: agent, action_id: note, source: 'editor', created_at: expect.any(String) },
    ]);

    const detach = await h.t.app.inject({
      method: 'PATCH',
      url: `/backend/api/v1/agents/${agent}`,
      headers: alice.auth,
      payload: { tool_ids: [add] },
    });
    expect(detach.statusCode).toBe(200);
    expect(await h.db.kysely.selectFrom('tool_permissions').selectAll().execute()).toEqual([]);
    expect((await auditActions()).at(-1)).toEqual({
      action: 'agent.update',
      detail: { fields: ['tool_ids'], tool_permissions_revoked: [note] },
    });
    // Attached again, it asks again.
    await h.t.app.inject({
      method: 'PATCH',
      url: `/backend/api/v1/agents/${agent}`,
      headers: alice.auth,
      payload: { tool_ids: [note, add] },
    });
    expect((await permissions()).body.data).toEqual([expect.objectContaining({ mode: 'ask' })]);
  });

  it('refuses a read tool, a tool not attached, a bad mode, and another user’s agent', async () => {
    expect((await setPermission('allow', add)).statusCode).toBe(422);
    const unattached = await seedAction(h.db, {
      name: 'files_delete',
      description: 'Delete',
      effect: 'write',
      schema: { type: 'object', properties: {} },
    });
    const notAttached = await setPermission('allow', unattached);
    expect(notAttached.statusCode).toBe(404);
    expect(notAttached.json()).toEqual({
      detail: 'This tool is not attached to the agent',
      code: 'not_found',
    });
    const badMode = await setPermission('always');
    expect(badMode.statusCode).toBe(422);
    expect(JSON.stringify(badMode.json())).toContain('mode');

    expect(await permissions(bob.auth)).toEqual({
      status: 404,
      body: { detail: 'Agent not found', code: 'not_found' },
    });
    const bobSets = await setPermission('allow', note, bob.auth);
    expect(bobSets.statusCode).toBe(404);
    expect(bobSets.json()).toEqual({ detail: 'Agent not found', code: 'not_found' });
    expect(await h.db.kysely.selectFrom('tool_permissions').selectAll().execute()).toEqual([]);

    // Bob's own agent with Alice's tool ids in the path: still nothing of Alice's.
    await attach(h.db, agent, unattached, 5);
    const bobAgent = (
      await h.t.app.inject({
        method: 'POST',
        url: '/backend/api/v1/agents/',
        headers: bob.auth,
        payload: { name: 'Bob desk', description: 'Bob', tool_ids: [] },
      })
    ).json<{ id: number }>().id;
    expect((await setPermission('allow', unattached, bob.auth, bobAgent)).statusCode).toBe(404);
  });
});
