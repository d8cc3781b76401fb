import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatHarness, seedAgent, uiChunks, type ChatHarness } from './support/chat-fixtures.ts';
import { testDatabaseKind } from './support/test-app.ts';
import { createUser } from './support/users.ts';

/** Answers compressed by http/compression.ts (issue 28): from 1 KB, never a stream of events. */
describe(`compression of answers on ${testDatabaseKind()}`, () => {
  let h: ChatHarness;
  let alice: number;
  let agent: number;

  beforeAll(async () => {
    h = await chatHarness();
    alice = await createUser(h.db, 'alice');
    agent = await seedAgent(h.db, alice, 'Alice agent');
  });
  afterAll(() => h.t.close());

  const get = (url: string, encoding?: string) =>
    h.t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

  it('compresses JSON of 1 KB and more with brotli or gzip, as the client prefers', async () => {
    const plain = await get('/backend/openapi.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await get('/backend/openapi.json', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect((await promisify(zlib.brotliDecompress)(br.rawPayload)).equals(plain.rawPayload)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);

    const gzip = await get('/backend/openapi.json', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect((await promisify(zlib.gunzip)(gzip.rawPayload)).equals(plain.rawPayload)).toBe(true);

    // What the client does not accept is not sent.
    expect((await get('/backend/openapi.json', 'identity')).headers['content-encoding']).toBeUndefined();
  });

  it('sends answers under 1 KB as they are', async () => {
    const small = await get('/backend/api/v1/public/health/live', 'br, gzip');
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('never compresses the chat’s stream of events, which must reach the client as it is written', async () => {
    const headers = { ...(await h.signIn(alice, agent)), 'accept-encoding': 'br, gzip' };
    const res = await h.t.app.inject({
      method: 'POST',
      url: '/chainlit/chat',
      headers,
      payload: { text: 'hello' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(uiChunks(res.body).at(-1)).toMatchObject({ type: 'finish' });
  });
});
