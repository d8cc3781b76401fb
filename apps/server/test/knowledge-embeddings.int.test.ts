import { chatSessionCookieFor, searchKnowledgeOutputSchema } from '@cadre/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, uiChunks } from './support/chat-fixtures.ts';
import { startFakeServer, type FakeServer } from './support/fake-http.ts';
import { multipartBody } from './support/knowledge-files.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

const API = '/backend/api/v1';

/**
 * A local server speaking the OpenAI embeddings wire format (`POST /v1/embeddings`) that places
 * each text by topic: time away from work, money back, or neither. So a question that shares no
 * word with a passage still finds it by meaning, which full-text search alone cannot.
 */
const TOPICS = [/holiday|vacation|time off|leave|days off/i, /refund|money back|reimburse/i];
const vectorOf = (text: string) => [...TOPICS.map((topic) => (topic.test(text) ? 1 : 0)), 0.05];

describe(`knowledge search with embeddings on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let embeddings: FakeServer;
  /** Answers to fail before the next success (the client tries each call twice). */
  let failures = 0;
  let t: TestApp;
  let alice: { authorization: string };
  let agentId: number;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    embeddings = await startFakeServer((req) => {
      if (failures > 0) {
        failures -= 1;
        return { status: 500, json: { error: { message: 'overloaded' } } };
      }
      const { input, model } = JSON.parse(req.body) as { input: string[]; model: string };
      return {
        json: {
          object: 'list',
          model,
          data: input.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text) })),
          usage: { prompt_tokens: input.length, total_tokens: input.length },
        },
      };
    });
    t = await createTestApp({
      ...issuer.env,
      LLM_MODELS: JSON.stringify([
        { id: 'local', provider: 'openai-compatible', model: 'llama', base_url: `${embeddings.url}/v1` },
      ]),
      LLM_DEFAULT_MODEL: 'offline',
      KNOWLEDGE_EMBEDDING_MODEL: 'topic-embedder',
      KNOWLEDGE_EMBEDDING_FROM: 'local',
    });
    ({ auth: alice } = await signInAs(t, issuer, { sub: 'alice', email: 'alice@example.com' }));
    agentId = (
      await t.app.inject({
        method: 'POST',
        url: `${API}/agents/`,
        headers: alice,
        payload: { name: 'Librarian', description: 'Answers from files', tool_ids: [] },
      })
    ).json<{ id: number }>().id;
  });
  afterAll(async () => {
    await t?.close();
    await embeddings?.close();
    await issuer?.close();
  });

  const upload = async (name: string, text: string) => {
    const body = await multipartBody([{ field: 'file', name, bytes: text }]);
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/agents/${agentId}/files`,
      headers: { ...alice, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    return res.json<{ id: string; embedding_model: string | null }>();
  };
  /** One chat turn on the offline model: what "Search knowledge" found. */
  const search = async (text: string) => {
    const cookieName = chatSessionCookieFor(agentId);
    const session = await t.app.inject({
      method: 'POST',
      url: '/chainlit/auth/header',
      headers: { ...alice, 'x-agent-id': String(agentId) },
    });
    const cookie = session.cookies.find((c) => c.name === cookieName)!;
    const turn = await t.app.inject({
      method: 'POST',
      url: '/chainlit/chat',
      headers: {
        cookie: `${cookieName}=${cookie.value}`,
        origin: ORIGIN,
        'x-requested-with': 'cadre-chat',
        'x-agent-id': String(agentId),
      },
      payload: { text },
    });
    const output = uiChunks(turn.body).find((c) => c.type === 'tool-output-available') as
      { output: unknown } | undefined;
    return searchKnowledgeOutputSchema.parse(output?.output).passages.map((p) => p.file_name);
  };

  it('embeds passages through the configured API and finds a passage by meaning, not only by its words', async () => {
    const handbook = await upload('handbook.md', 'Every employee gets 27 days of paid holiday a year.');
    const policy = await upload('policy.md', 'Refunds are issued within 14 days of the return arriving.');
    expect(handbook.embedding_model).toBe('topic-embedder');
    expect(policy.embedding_model).toBe('topic-embedder');
    const calls = embeddings.requests.filter((r) => r.path === '/v1/embeddings');
    expect(calls.map((r) => JSON.parse(r.body).model)).toEqual(['topic-embedder', 'topic-embedder']);
    // No word of the question is in either file: only the embeddings can find the handbook.
    expect((await search('can I take a vacation break?'))[0]).toBe('handbook.md');
    // Words and meaning together: the policy is found by both, and ranked first.
    expect((await search('what do the files say about refunds?'))[0]).toBe('policy.md');
  });

  it('indexes a file for full-text search when the embeddings API fails', async () => {
    failures = 2;
    const file = await upload('parking.md', 'Parking permits are renewed every January at the front desk.');
    expect(file.embedding_model).toBeNull();
    expect(t.logs.some((l) => l.includes('knowledge embeddings failed'))).toBe(true);
    expect((await search('what do the files say about parking permits?'))[0]).toBe('parking.md');
  });
});
