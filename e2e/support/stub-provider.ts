// A local stand-in for the Brave Search API, for the e2e server's BUILTIN_BRAVE_SEARCH_URL: it
// accepts one key (STUB_BRAVE_KEY) and answers 401 for any other, as Brave does for a wrong
// X-Subscription-Token. It listens on 127.0.0.2, the only private address the server may reach.
import http from 'node:http';

const STUB_BRAVE_KEY = 'e2e-brave-key-123';
const STUB_HOST = '127.0.0.2';

const port = Number(process.env.E2E_STUB_PORT);

http
  .createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${STUB_HOST}`);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/health') return send(200, { ok: true });
    if (url.pathname !== '/res/v1/web/search') return send(404, { error: 'not found' });
    if (req.headers['x-subscription-token'] !== STUB_BRAVE_KEY) {
      return send(401, { type: 'ErrorResponse', error: { status: 401, code: 'UNAUTHORIZED' } });
    }
    return send(200, {
      web: { results: [{ title: 'Cadre', url: 'https://cadre.test/', description: 'e2e' }] },
    });
  })
  .listen(port, STUB_HOST);
