import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentImportResultSchema, agentTemplateListSchema } from '@cadre/contract';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

const API = '/backend/api/v1';

/**
 * Agent templates: one call makes a working agent, its services connected for the caller (they
 * need no account) and its tools attached; a retry with the same Idempotency-Key makes nothing
 * more. READY_ASSISTANT decides whether a new account is offered the assistant.
 */
describe(`agent templates on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let auth: Record<string, string>;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    t = await createTestApp(issuer.env);
    ({ auth } = await signInAs(t, issuer, { sub: 'tess', email: 'tess@example.com' }));
  });
  afterAll(async () => {
    await t?.close();
    await issuer?.close();
  });

  const create = (id: string, key = crypto.randomUUID()) =>
    t.app.inject({
      method: 'POST',
      url: `${API}/agent-templates/${id}/agents`,
      headers: { ...auth, 'idempotency-key': key },
    });
  const activeServices = async () =>
    (await t.app.inject({ url: `${API}/services/active`, headers: auth })).json() as { name: string }[];

  it('every template makes an agent with all its tools and its services connected', async () => {
    const list = agentTemplateListSchema.parse(
      (await t.app.inject({ url: `${API}/agent-templates/`, headers: auth })).json(),
    );
    expect(list.ready_assistant).toBe('assistant');
    expect(list.templates.map((template) => template.id)).toContain('assistant');
    expect(await activeServices()).toEqual([]);
    for (const template of list.templates) {
      const answer = await create(template.id);
      expect(answer.statusCode, template.id).toBe(201);
      const result = agentImportResultSchema.parse(answer.json());
      // Nothing left for the person to do: no tool missing, no service to connect.
      expect(result.tools_not_found, template.id).toEqual([]);
      expect(result.tools_to_connect, template.id).toEqual([]);
      expect(result.agent).toMatchObject({
        name: template.name,
        icon: template.icon,
        starters: template.starters,
      });
      expect(new Set(result.agent.tools.map((tool) => tool.app_name))).toEqual(new Set(template.services));
    }
    // Its first version says where it came from.
    const assistant = agentImportResultSchema.parse((await create('assistant')).json()).agent;
    const versions = await t.app.inject({ url: `${API}/agents/${assistant.id}/versions`, headers: auth });
    expect(versions.json()[0].reason).toBe('template');
    const connected = (await activeServices()).map((service) => service.name);
    expect(connected).toEqual(
      expect.arrayContaining(['Calculator', 'Date & Time', 'Notes', 'Calendar', 'Hacker News']),
    );
  });

  it('a retry with the same key answers with the first agent and creates no other', async () => {
    const key = crypto.randomUUID();
    const first = await create('assistant', key);
    const retry = await create('assistant', key);
    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toEqual(first.json());
    const agents = (await t.app.inject({ url: `${API}/agents/`, headers: auth })).json() as { id: number }[];
    expect(agents.filter((agent) => agent.id === first.json().agent.id)).toHaveLength(1);
  });

  it('an unknown template answers 404, a malformed id 422', async () => {
    expect((await create('no-such-template')).statusCode).toBe(404);
    const malformed = await create('Not_A_Template');
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json().detail[0].loc).toEqual(['params', 'template_id']);
  });

  it('READY_ASSISTANT=false takes the offer away and keeps the templates', async () => {
    const off = await createTestApp({ ...issuer.env, READY_ASSISTANT: 'false' }, {}, { sameDatabaseAs: t });
    try {
      const list = (await off.app.inject({ url: `${API}/agent-templates/`, headers: auth })).json();
      expect(list.ready_assistant).toBeNull();
      expect(list.templates.length).toBeGreaterThan(0);
    } finally {
      await off.close();
    }
  });
});
