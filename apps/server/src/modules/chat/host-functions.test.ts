import type { UIMessageChunk } from 'ai';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../http/errors.ts';
import { createHostFunctionBridge, createHostFunctionTool } from './host-functions.ts';
import { hostFunctionRoutes } from './http/host-function-routes.ts';

const alice = { userId: 1, agentId: 10 };
const bob = { userId: 2, agentId: 20 };

describe('host-page function bridge', () => {
  it('streams a data-call-fn chunk and resolves with the answer from the same principal, once', async () => {
    const bridge = createHostFunctionBridge();
    const written: UIMessageChunk[] = [];
    const pending = bridge.call({
      ...alice,
      name: 'getCart',
      args: { id: 3 },
      write: (c) => written.push(c),
    });
    expect(written).toHaveLength(1);
    const chunk = written[0] as unknown as {
      type: string;
      data: { callId: string; name: string; args: unknown };
    };
    expect(chunk.type).toBe('data-call-fn');
    expect(chunk.data).toMatchObject({ name: 'getCart', args: { id: 3 } });
    expect(bridge.settle(bob, chunk.data.callId, 'forged')).toBe(false);
    expect(bridge.settle({ userId: 1, agentId: 99 }, chunk.data.callId, 'other agent')).toBe(false);
    expect(bridge.settle(alice, chunk.data.callId, { items: 2 })).toBe(true);
    expect(bridge.settle(alice, chunk.data.callId, { items: 99 })).toBe(false);
    await expect(pending).resolves.toEqual({ ok: true, result: { items: 2 } });
    expect(bridge.pendingCount()).toBe(0);
  });

  it('settles as an error when the run stops or nobody answers', async () => {
    const bridge = createHostFunctionBridge({ timeoutMs: 5 });
    const controller = new AbortController();
    const stopped = bridge.call({
      ...alice,
      name: 'f',
      args: {},
      write: () => {},
      signal: controller.signal,
    });
    controller.abort();
    await expect(stopped).resolves.toMatchObject({ ok: false });
    await expect(bridge.call({ ...alice, name: 'g', args: {}, write: () => {} })).resolves.toMatchObject({
      ok: false,
      error: 'The page did not answer the function call in time.',
    });
    expect(bridge.pendingCount()).toBe(0);
  });

  it('exposes a tool whose execution waits for the page', async () => {
    const bridge = createHostFunctionBridge();
    let callId = '';
    const tool = createHostFunctionTool(bridge, {
      ...alice,
      write: (c) => {
        callId = (c as unknown as { data: { callId: string } }).data.callId;
        queueMicrotask(() => bridge.settle(alice, callId, 'page says hi'));
      },
    });
    const result = await tool.execute!(
      { name: 'greet', args: {} },
      { toolCallId: 't1', messages: [], context: {} },
    );
    expect(result).toBe('page says hi');
  });
});

describe('POST /chainlit/fn-results/:callId', () => {
  let app: FastifyInstance;
  const bridge = createHostFunctionBridge();

  beforeAll(async () => {
    app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.setErrorHandler((error, _request, reply) => {
      if (error instanceof HttpError) return reply.code(error.statusCode).send({ detail: error.message });
      const status = (error as { statusCode?: number }).statusCode ?? 500;
      return reply.code(status).send({ detail: 'error' });
    });
    // The chat plugin's preHandler authenticates; here the principal comes from a test header.
    await app.register(hostFunctionRoutes, {
      bridge,
      principalOf: (request) => (request.headers['x-test-user'] === 'bob' ? bob : alice),
      prefix: '/chainlit',
    });
  });
  afterAll(() => app.close());

  it('delivers the result to the waiting run; foreign, unknown and repeated answers get 404', async () => {
    let callId = '';
    const pending = bridge.call({
      ...alice,
      name: 'getCart',
      args: {},
      write: (c) => (callId = (c as unknown as { data: { callId: string } }).data.callId),
    });
    const post = (id: string, body: unknown, user = 'alice') =>
      app.inject({
        method: 'POST',
        url: `/chainlit/fn-results/${id}`,
        payload: body as object,
        headers: { 'x-test-user': user },
      });
    expect((await post(callId, { result: 1 }, 'bob')).statusCode).toBe(404);
    expect((await post('nope', { result: 1 })).statusCode).toBe(404);
    expect((await post(callId, { result: 1, extra: true })).statusCode).toBeGreaterThanOrEqual(400);
    expect((await post(callId, { result: { total: 12 } })).statusCode).toBe(204);
    expect((await post(callId, { result: 2 })).statusCode).toBe(404);
    await expect(pending).resolves.toEqual({ ok: true, result: { total: 12 } });
  });
});
