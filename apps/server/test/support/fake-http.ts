import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  url: URL;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export type FakeHandler = (
  req: RecordedRequest,
) =>
  | { status?: number; json?: unknown; text?: string; headers?: Record<string, string> }
  | Promise<{ status?: number; json?: unknown; text?: string; headers?: Record<string, string> }>;

/** A local HTTP server on 127.0.0.1 that records requests and answers like a third-party API. */
export async function startFakeServer(handler: FakeHandler): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const recorded = {
        method: req.method ?? 'GET',
        path: url.pathname,
        url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      try {
        const answer = await handler(recorded);
        const headers = {
          ...(answer.json !== undefined ? { 'content-type': 'application/json' } : {}),
          ...answer.headers,
        };
        res.writeHead(answer.status ?? 200, headers);
        res.end(answer.json !== undefined ? JSON.stringify(answer.json) : (answer.text ?? ''));
      } catch (err) {
        res.writeHead(500);
        res.end(String(err));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
