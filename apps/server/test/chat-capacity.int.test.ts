import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUSY_RETRY_AFTER_SECONDS } from '../src/modules/chat/turns.ts';
import { talkerChatCookie } from './support/chat-fixtures.ts';
import { startFakeOpenAi, type FakeOpenAi } from './support/fake-openai.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

/**
 * CHAT_MAX_CONCURRENT: past the turns an instance may run at once, a new turn is refused with 429
 * and Retry-After at once, and is admitted again as soon as a running turn ends. Over real HTTP,
 * with a model that answers slowly, so the first turn is really running when the second arrives.
 */
describe(`chat capacity on ${testDatabaseKind()}`, () => {
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
      LLM_BASE_URL: model.url,
      CHAT_MAX_CONCURRENT: '1',
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

  const chat = (text: string) =>
    fetch(`${base}/chainlit/chat`, {
      method: 'POST',
      headers: {
        cookie,
        origin: 'http://cadre.test',
        'x-requested-with': 'cadre-chat',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ text }),
    });

  it('refuses a turn past CHAT_MAX_CONCURRENT with 429 and Retry-After, and admits one when a turn ends', async () => {
    const running = await chat('slow 100 10');
    expect(running.status).toBe(200);
    const reader = running.body!.getReader();
    await reader.read(); // the turn has started streaming

    const refused = await chat('hello');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(BUSY_RETRY_AFTER_SECONDS));
    expect(await refused.json()).toEqual({
      detail: expect.stringMatching(/as many chats as it can/),
      code: 'rate_limited',
    });

    while (!(await reader.read()).done);
    await expect
      .poll(async () => {
        const next = await chat('hello again');
        await next.arrayBuffer();
        return next.status;
      })
      .toBe(200);
  });
});
