import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A local server speaking the OpenAI Chat Completions wire format (`POST …/chat/completions`,
 * streamed `chat.completion.chunk` events, a usage chunk, `[DONE]`), for tests and benchmarks that
 * need a model on the far side of real HTTP. The last user message picks the reply:
 * - `fail STATUS …`: an HTTP error with that status and a JSON body that echoes the message;
 * - `slow N MS`: N tokens (`tok1 `, `tok2 `, …) MS milliseconds apart (the whole message, or a
 *   quoted string on a line of its own, as in a trigger's event);
 * - `tool <name part> <json>`: one call of the first offered tool whose name contains the part, then
 *   (once the tool result comes back) a short text answer;
 * - anything else: `tokens` tokens at once (20 unless configured), each `word` (`tok`) and its number.
 * The usage chunk reports 10 prompt tokens and the completion's tokens; with `reportUsage: false`
 * there is none, as with providers that do not report usage. Asked for `logprobs`, each token
 * carries one (-0.5), with `top_logprobs` alternatives as asked.
 * Every request is recorded with the path it came in on, whether the client aborted it, and when.
 */
export interface FakeOpenAi {
  /** Base URL for LLM_BASE_URL (ends in /v1). */
  url: string;
  requests: {
    path: string;
    body: Record<string, unknown>;
    aborted: boolean;
    ended: boolean;
    startedAt: number;
  }[];
  close(): Promise<void>;
}

interface Message {
  role: string;
  content?: unknown;
}

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content
          .map((part) => (typeof part === 'object' && part && 'text' in part ? String(part.text) : ''))
          .join('')
      : '';

export async function startFakeOpenAi(
  options: {
    tokens?: number;
    word?: string;
    /** False: the stream carries no usage chunk (a provider that reports none). */
    reportUsage?: boolean;
    /** Keeps `requests` (default); the benchmark turns it off so a long run does not grow memory. */
    record?: boolean;
  } = {},
): Promise<FakeOpenAi> {
  const requests: FakeOpenAi['requests'] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const body = JSON.parse(raw) as Record<string, unknown> & {
        model: string;
        messages: Message[];
        tools?: { function: { name: string } }[];
      };
      const record = { path: req.url, body, aborted: false, ended: false, startedAt: Date.now() };
      if (options.record !== false) requests.push(record);
      res.on('close', () => {
        if (!record.ended) record.aborted = true;
      });
      void reply(body, res, options.tokens ?? 20, options.word ?? 'tok', options.reportUsage ?? true).then(
        () => {
          record.ended = true;
        },
      );
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function reply(
  body: {
    model: string;
    messages: Message[];
    tools?: { function: { name: string } }[];
    logprobs?: boolean;
    top_logprobs?: number;
  },
  res: http.ServerResponse,
  defaultTokens: number,
  word: string,
  reportUsage: boolean,
) {
  const id = `chatcmpl-${Math.random().toString(36).slice(2)}`;
  const created = Math.floor(Date.now() / 1000);
  const logprobs = (delta: object) => {
    const token = 'content' in delta && typeof delta.content === 'string' ? delta.content : '';
    if (!body.logprobs || !token) return {};
    const alternatives = Array.from({ length: body.top_logprobs ?? 0 }, (_, i) => ({
      token: `alt${i}`,
      logprob: -1 - i,
      bytes: null,
    }));
    return { logprobs: { content: [{ token, logprob: -0.5, bytes: null, top_logprobs: alternatives }] } };
  };
  const chunk = (delta: object, finish: string | null, usage?: object) =>
    `data: ${JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created,
      model: body.model,
      choices: [{ index: 0, delta, finish_reason: finish, ...logprobs(delta) }],
      ...(usage ? { usage } : {}),
    })}\n\n`;
  const finish = (reason: string, completionTokens: number) => {
    const usage = {
      prompt_tokens: 10,
      completion_tokens: completionTokens,
      total_tokens: 10 + completionTokens,
    };
    res.write(chunk({}, reason, reportUsage ? usage : undefined));
    res.end('data: [DONE]\n\n');
  };
  const last = body.messages.at(-1);
  const lastUser = textOf([...body.messages].reverse().find((m) => m.role === 'user')?.content).trim();
  const failure = /^fail (\d{3})\b/.exec(lastUser);
  if (failure) {
    // Like real providers, the error body may echo what the client sent.
    res.writeHead(Number(failure[1]), { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `refused: ${lastUser}`, type: 'fake_error' } }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(chunk({ role: 'assistant', content: '' }, null));

  const toolRequest = /^tool (\S+) (\{.*\})$/.exec(lastUser);
  if (toolRequest && last?.role !== 'tool') {
    const tool = body.tools?.find((t) => t.function.name.includes(toolRequest[1]!));
    if (tool) {
      res.write(
        chunk(
          {
            tool_calls: [
              {
                index: 0,
                id: `call_${id}`,
                type: 'function',
                function: { name: tool.function.name, arguments: toolRequest[2] },
              },
            ],
          },
          null,
        ),
      );
      finish('tool_calls', 5);
      return;
    }
  }
  const slow = /(?:^|")slow (\d+) (\d+)(?:"|$)/m.exec(lastUser);
  const count = slow ? Number(slow[1]) : defaultTokens;
  const gap = slow ? Number(slow[2]) : 0;
  for (let i = 1; i <= count; i += 1) {
    if (res.destroyed) return;
    res.write(chunk({ content: `${word}${i} ` }, null));
    if (gap) await sleep(gap);
  }
  if (!res.destroyed) finish('stop', count);
}
