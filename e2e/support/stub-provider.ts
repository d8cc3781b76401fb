// A local stand-in for the Brave Search API, for the e2e server's BUILTIN_BRAVE_SEARCH_URL: it
// accepts one key (STUB_BRAVE_KEY) and answers 401 for any other, as Brave does for a wrong
// X-Subscription-Token. It listens on 127.0.0.2, the only private address the server may reach.
// It is also the `stub` model of the server's LLM_MODELS: `POST /v1/chat/completions` streams
// STUB_MODEL_ANSWER in the OpenAI wire format.
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

http
  .createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${STUB_HOST}`);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/health') return send(200, { ok: true });
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
