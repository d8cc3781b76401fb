import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { talkerChatCookie } from './support/chat-fixtures.ts';
import { startFakeOpenAi, type FakeOpenAi } from './support/fake-openai.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

const KEY = 'sk-fake-SECRET-log-probe-0001';

/**
 * Provider failures are logged once per failed model call, with provider, model, status and
 * duration, so an operator can tell a wrong key from an outage; never the key or the prompt.
 */
describe(`provider failures in the log on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let model: FakeOpenAi;
  let t: TestApp;
  let base: string;
  let cookie: string;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    model = await startFakeOpenAi();
    t = await createTestApp({
      ...issuer.env,
      PUBLIC_URL: 'http://cadre.test',
      LLM_PROVIDER: 'openai-compatible',
      LLM_MODEL: 'fake-model',
      LLM_API_KEY: KEY,
      LLM_BASE_URL: model.url,
      CHAT_TURNS_PER_MINUTE: '1000',
    });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { auth } = await signInAs(t, issuer, { sub: 'alice', email: 'alice@example.com' });
    cookie = await talkerChatCookie(t, auth);
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await model?.close();
    await issuer?.close();
  });

  async function chat(text: string) {
    const res = await fetch(`${base}/chainlit/chat`, {
      method: 'POST',
      headers: {
        cookie,
        origin: 'http://cadre.test',
        'x-requested-with': 'cadre-chat',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ text }),
    });
    expect(res.status).toBe(200);
    return res.text();
  }

  const failureLines = () =>
    t.logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'language model call failed');

  it.each([
    [401, 'provider_error', 1],
    [500, 'provider_down', 3],
  ])(
    'logs a %i once (after %s retries too) with provider, model, status and duration',
    async (status, category, attempts) => {
      const before = failureLines().length;
      const prompt = `fail ${status} my private question about payroll`;
      const body = await chat(prompt);
      expect(body).toContain(category);
      const lines = failureLines().slice(before);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        level: 40,
        provider: 'openai-compatible',
        model: 'fake-model',
        status,
        category,
        attempts,
        durationMs: expect.any(Number),
      });
      const everything = t.logs.join('\n');
      expect(everything).not.toContain(KEY);
      expect(everything).not.toContain('private question about payroll');
    },
    20_000,
  );

  it('logs nothing for a call that succeeds', async () => {
    const before = failureLines().length;
    await chat('hello there');
    expect(failureLines().length).toBe(before);
  });
});
