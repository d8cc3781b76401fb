import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';

describe(`chat sign-in with DISABLE_AUTH on ${testDatabaseKind()}`, () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({ DISABLE_AUTH: 'true' });
  });
  afterEach(async () => {
    await t?.close();
  });

  it("signs the mock user in to the chat without a token, for the mock user's own agents only", async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/backend/api/v1/agents/',
      payload: { name: 'Helper', description: 'Helps', guidelines: null, tool_ids: [] },
    });
    expect(created.statusCode).toBe(201);
    const agentId = created.json().id as number;

    const signIn = await t.app.inject({
      method: 'POST',
      url: '/chainlit/auth/header',
      headers: { 'x-agent-id': String(agentId) },
    });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json()).toEqual({ success: true });
    expect(String(signIn.headers['set-cookie'])).toContain('cadre_chat_session=');

    const unknownAgent = await t.app.inject({
      method: 'POST',
      url: '/chainlit/auth/header',
      headers: { 'x-agent-id': String(agentId + 1000) },
    });
    expect(unknownAgent.statusCode).toBe(404);
    expect(unknownAgent.json()).toEqual({
      detail: 'This agent does not exist or is not yours',
      code: 'not_found',
    });
  });
});

describe(`chat sign-in with sign-in on ${testDatabaseKind()}`, () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(async () => {
    await t?.close();
  });

  it('refuses a request without a token', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/chainlit/auth/header',
      headers: { 'x-agent-id': '1' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: 'credentialssignin', code: 'unauthorized' });
  });
});
