// A local stand-in for the Brave Search API, for the e2e server's BUILTIN_BRAVE_SEARCH_URL: it
// accepts one key (STUB_BRAVE_KEY) and answers 401 for any other, as Brave does for a wrong
// X-Subscription-Token. It listens on 127.0.0.2, the only private address the server may reach.
// It is also the `stub` model of the server's LLM_MODELS: `POST /v1/chat/completions` streams
// STUB_MODEL_ANSWER in the OpenAI wire format; and a remote MCP server at `/mcp` with 500 tools.
import http from 'node:http';

const STUB_BRAVE_KEY = 'e2e-brave-key-123';
const STUB_HOST = '127.0.0.2';

const port = Number(process.env.E2E_STUB_PORT);
const STUB_MODEL_ANSWER = 'The stub model says hello.';

function streamAnswer(res: http.ServerResponse) {
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-stub',
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: 'stub-1',
      choices: [{ index: 0, delta, finish_reason: finish }],
    })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(chunk({ role: 'assistant', content: STUB_MODEL_ANSWER }, null));
  res.write(chunk({}, 'stop'));
  res.end('data: [DONE]\n\n');
}

/** As many tools as the server accepts from one MCP server by default (MCP_MAX_TOOLS). */
const MCP_TOOL_KINDS = ['report', 'invoice', 'ticket', 'meeting', 'contact'];
const MCP_TOOLS = Array.from({ length: 500 }, (_, i) => {
  const kind = MCP_TOOL_KINDS[i % MCP_TOOL_KINDS.length]!;
  return {
    name: `${kind}_${i}`,
    title: `${kind[0]!.toUpperCase()}${kind.slice(1)} ${i}`,
    description: `Files ${kind} ${i}`,
    inputSchema: { type: 'object', properties: {} },
  };
});

/** An MCP server over Streamable HTTP that answers in JSON and only lists its tools. */
function answerMcp(req: http.IncomingMessage, res: http.ServerResponse) {
  if (req.method !== 'POST') return void res.writeHead(405).end();
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    const message = JSON.parse(body) as {
      id?: number | string;
      method: string;
      params?: { protocolVersion?: string };
    };
    // A notification (no id) is acknowledged without an answer.
    if (message.id === undefined) return void res.writeHead(202).end();
    const result =
      message.method === 'initialize'
        ? {
            protocolVersion: message.params?.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: 'e2e-stub', version: '1.0.0' },
          }
        : message.method === 'tools/list'
          ? { tools: MCP_TOOLS }
          : undefined;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        result
          ? { jsonrpc: '2.0', id: message.id, result }
          : { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } },
      ),
    );
  });
}

http
  .createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${STUB_HOST}`);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/health') return send(200, { ok: true });
    if (url.pathname === '/mcp') return answerMcp(req, res);
    if (url.pathname === '/v1/chat/completions' && req.method === 'POST') {
      req.resume();
      return req.on('end', () => streamAnswer(res));
    }
    if (url.pathname !== '/res/v1/web/search') return send(404, { error: 'not found' });
    if (req.headers['x-subscription-token'] !== STUB_BRAVE_KEY) {
      return send(401, { type: 'ErrorResponse', error: { status: 401, code: 'UNAUTHORIZED' } });
    }
    return send(200, {
      web: { results: [{ title: 'Cadre', url: 'https://cadre.test/', description: 'e2e' }] },
    });
  })
  .listen(port, STUB_HOST);
