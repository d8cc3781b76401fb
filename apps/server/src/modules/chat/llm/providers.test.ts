import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { jsonSchema, streamText, tool, type TextStreamPart, type ToolSet } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { LlmError } from './errors.ts';
import { selectModel, type ModelSettings } from './select-model.ts';

/**
 * R6: provider wire tests. Local HTTP servers speak the providers' real streaming formats (OpenAI
 * chat-completions SSE, Anthropic messages SSE) and fail in the ways providers fail.
 */

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

interface FakeProvider {
  url: string;
  requests: { path: string; body: string }[];
  close(): Promise<void>;
}

const servers: FakeProvider[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Answers the n-th request with the n-th handler (the last one repeats). */
async function fakeProvider(handlers: Handler[]): Promise<FakeProvider> {
  const requests: { path: string; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', body });
      const handler = handlers[Math.min(requests.length - 1, handlers.length - 1)]!;
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fake = {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(fake);
  return fake;
}

const sse = (res: http.ServerResponse, events: string[]) => {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of events) res.write(event);
  res.end();
};

const openAiChunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'gpt-test',
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;

const openAiToolCallStream: Handler = (_req, res) =>
  sse(res, [
    openAiChunk({ role: 'assistant', content: 'Adding ' }),
    openAiChunk({ content: 'now.' }),
    openAiChunk({
      tool_calls: [
        { index: 0, id: 'call_1', type: 'function', function: { name: 'calculator_add', arguments: '' } },
      ],
    }),
    openAiChunk({ tool_calls: [{ index: 0, function: { arguments: '{"a": 2,' } }] }),
    openAiChunk({ tool_calls: [{ index: 0, function: { arguments: ' "b": 3}' } }] }),
    openAiChunk({}, 'tool_calls'),
    `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-test', choices: [], usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 } })}\n\n`,
    'data: [DONE]\n\n',
  ]);

const anthropicEvent = (type: string, data: object) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

const anthropicToolCallStream: Handler = (_req, res) =>
  sse(res, [
    anthropicEvent('message_start', {
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-test',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 12, output_tokens: 1 },
      },
    }),
    anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Adding ' } }),
    anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'now.' } }),
    anthropicEvent('content_block_stop', { index: 0 }),
    anthropicEvent('content_block_start', {
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_1', name: 'calculator_add', input: {} },
    }),
    anthropicEvent('content_block_delta', {
      index: 1,
      delta: { type: 'input_json_delta', partial_json: '{"a": 2' },
    }),
    anthropicEvent('content_block_delta', {
      index: 1,
      delta: { type: 'input_json_delta', partial_json: ', "b": 3}' },
    }),
    anthropicEvent('content_block_stop', { index: 1 }),
    anthropicEvent('message_delta', {
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: 9 },
    }),
    anthropicEvent('message_stop', {}),
  ]);

const status =
  (code: number, body: object, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(code, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

const llm = (
  provider: ModelSettings['provider'],
  baseUrl: string,
  overrides: Partial<ModelSettings> = {},
): ModelSettings => ({
  id: 'test-model',
  label: 'Test model',
  provider,
  model: provider === 'anthropic' ? 'claude-test' : 'gpt-test',
  apiKey: 'test-key',
  baseUrl,
  contextWindow: null,
  contextBudget: null,
  inputPricePerMillion: null,
  outputPricePerMillion: null,
  firstByteTimeoutMs: 5_000,
  idleTimeoutMs: 5_000,
  ...overrides,
});

const tools: ToolSet = {
  calculator_add: tool({
    description: 'Add two numbers',
    inputSchema: jsonSchema<Record<string, unknown>>({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    }),
  }),
};

/** Runs one streamText call the way the runtime does and collects what it produced. */
async function run(config: ModelSettings) {
  const delays: number[] = [];
  const selection = selectModel(config, {
    resilience: {
      sleep: async (ms) => {
        delays.push(ms);
      },
      random: () => 0.5,
    },
  });
  const result = streamText({
    model: selection.model!,
    prompt: 'add 2 and 3',
    maxOutputTokens: 256,
    tools,
    maxRetries: 0,
    onError: () => {},
  });
  const parts: TextStreamPart<ToolSet>[] = [];
  for await (const part of result.fullStream) parts.push(part);
  const error = parts.find((p) => p.type === 'error') as { error: unknown } | undefined;
  const text = parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join('');
  const toolCalls = parts.filter((p) => p.type === 'tool-call') as { toolName: string; input: unknown }[];
  return { delays, error: error?.error, text, toolCalls };
}

describe('LLM providers over their wire formats (R6)', () => {
  it('OpenAI: streams text and assembles tool-call deltas', async () => {
    const fake = await fakeProvider([openAiToolCallStream]);
    const out = await run(llm('openai', `${fake.url}/v1`));
    expect(out.error).toBeUndefined();
    expect(out.text).toBe('Adding now.');
    expect(out.toolCalls).toMatchObject([{ toolName: 'calculator_add', input: { a: 2, b: 3 } }]);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.path).toBe('/v1/chat/completions');
    expect(JSON.parse(fake.requests[0]!.body)).toMatchObject({ stream: true, model: 'gpt-test' });
  });

  it('OpenAI-compatible (Ollama, vLLM...): same wire format at the configured base URL', async () => {
    const fake = await fakeProvider([openAiToolCallStream]);
    const out = await run(llm('openai-compatible', `${fake.url}/api`, { apiKey: undefined }));
    expect(out.toolCalls).toMatchObject([{ toolName: 'calculator_add', input: { a: 2, b: 3 } }]);
    expect(fake.requests[0]!.path).toBe('/api/chat/completions');
  });

  it('Anthropic: content blocks with input_json_delta become a tool call', async () => {
    const fake = await fakeProvider([anthropicToolCallStream]);
    const out = await run(llm('anthropic', `${fake.url}/v1`));
    expect(out.error).toBeUndefined();
    expect(out.text).toBe('Adding now.');
    expect(out.toolCalls).toMatchObject([{ toolName: 'calculator_add', input: { a: 2, b: 3 } }]);
    expect(fake.requests[0]!.path).toBe('/v1/messages');
  });

  it('429 with retry-after is retried after the delay the provider asked for', async () => {
    const fake = await fakeProvider([
      status(
        429,
        { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
        { 'retry-after': '3' },
      ),
      openAiToolCallStream,
    ]);
    const out = await run(llm('openai', `${fake.url}/v1`));
    expect(out.error).toBeUndefined();
    expect(fake.requests).toHaveLength(2);
    expect(out.delays).toHaveLength(1);
    expect(out.delays[0]).toBeGreaterThanOrEqual(3000);
  });

  it('500 then success: one jittered retry', async () => {
    const fake = await fakeProvider([status(500, { error: { message: 'boom' } }), openAiToolCallStream]);
    const out = await run(llm('openai', `${fake.url}/v1`));
    expect(out.error).toBeUndefined();
    expect(out.text).toBe('Adding now.');
    expect(fake.requests).toHaveLength(2);
  });

  it('529 overloaded keeps failing: 3 attempts in total, then "provider down"', async () => {
    const fake = await fakeProvider([
      status(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
    ]);
    const out = await run(llm('anthropic', `${fake.url}/v1`));
    expect(fake.requests).toHaveLength(3);
    expect(out.delays).toHaveLength(2);
    expect(out.error).toBeInstanceOf(LlmError);
    expect((out.error as LlmError).category).toBe('provider_down');
  });

  it('429 that keeps coming ends as "rate limited" after 3 attempts', async () => {
    const fake = await fakeProvider([status(429, { error: { message: 'slow down', type: 'requests' } })]);
    const out = await run(llm('openai', `${fake.url}/v1`));
    expect(fake.requests).toHaveLength(3);
    expect((out.error as LlmError).category).toBe('rate_limited');
  });

  it('a spend-limit 429 is never retried (Anthropic and OpenAI)', async () => {
    const anthropic = await fakeProvider([
      status(429, {
        type: 'error',
        error: { type: 'rate_limit_error', message: 'enforced_spend_limit_reached: monthly limit' },
      }),
    ]);
    const outA = await run(llm('anthropic', `${anthropic.url}/v1`));
    expect(anthropic.requests).toHaveLength(1);
    expect((outA.error as LlmError).category).toBe('spend_limit');

    const openai = await fakeProvider([
      status(429, {
        error: {
          message: 'You exceeded your current quota',
          type: 'insufficient_quota',
          code: 'insufficient_quota',
        },
      }),
    ]);
    const outO = await run(llm('openai', `${openai.url}/v1`));
    expect(openai.requests).toHaveLength(1);
    expect((outO.error as LlmError).category).toBe('spend_limit');
    expect((outO.error as LlmError).message).not.toContain('test-key');
  });

  it('a stream that stalls mid-answer ends with a timeout (idle timeout), not a hang', async () => {
    const fake = await fakeProvider([
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(openAiChunk({ role: 'assistant', content: 'Partial ' }));
        // ...and then nothing more, with the connection left open.
      },
    ]);
    const out = await run(llm('openai', `${fake.url}/v1`, { idleTimeoutMs: 150 }));
    expect(out.text).toBe('Partial ');
    expect((out.error as LlmError).category).toBe('timeout');
    expect(fake.requests).toHaveLength(1);
  });

  it('a provider that never sends a first byte hits the first-byte timeout', async () => {
    const fake = await fakeProvider([() => {}]);
    const out = await run(llm('anthropic', `${fake.url}/v1`, { firstByteTimeoutMs: 150 }));
    expect((out.error as LlmError).category).toBe('timeout');
    expect(fake.requests).toHaveLength(1);
  });

  it('a provider without model or key is reported as "no model configured"', () => {
    const selection = selectModel(llm('openai', 'http://127.0.0.1:9', { model: '' }));
    expect(selection.model).toBeUndefined();
    expect(selection.problem?.category).toBe('no_model');
    const offline = selectModel({ ...llm('offline', ''), baseUrl: undefined });
    expect(offline.isOffline).toBe(true);
    expect(offline.label).toContain('Offline model');
  });
});
