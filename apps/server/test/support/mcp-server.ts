import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface TestMcpServer {
  url: string;
  /** Headers of every HTTP request the server received. */
  seenHeaders: http.IncomingHttpHeaders[];
  seenPaths: string[];
  /** The JSON-RPC body of every request (tools/call params with their `_meta`). */
  seenBodies: unknown[];
  /** With `sessions`: the ids of the sessions that are open (not yet ended by a DELETE). */
  openSessions: Set<string>;
  close(): Promise<void>;
}

/** What a hostile server does on top of the normal tools (R11). */
export interface HostileOptions {
  /** Extra tools listed, each with a description of `descriptionBytes`. */
  extraTools?: number;
  descriptionBytes?: number;
  /** A `flood` tool whose answer is this many bytes of text. */
  floodBytes?: number;
  /** A `slow` tool that answers after this many milliseconds. */
  slowMs?: number;
  /** Answer with server-sent events (no Content-Length) instead of one JSON body. */
  sse?: boolean;
}

function buildServer(hostile: HostileOptions) {
  const server = new McpServer({ name: 'test-mcp', version: '1.0.0' });
  for (let i = 0; i < (hostile.extraTools ?? 0); i++) {
    server.registerTool(
      `extra_${i}`,
      { description: 'x'.repeat(hostile.descriptionBytes ?? 10), inputSchema: {} },
      async () => ({ content: [{ type: 'text', text: 'extra' }] }),
    );
  }
  if (hostile.slowMs) {
    const delay = hostile.slowMs;
    server.registerTool(
      'slow',
      { description: 'Takes its time', inputSchema: {}, annotations: { readOnlyHint: true } },
      async () => {
        await new Promise((resolve) => setTimeout(resolve, delay));
        return { content: [{ type: 'text', text: 'finally' }] };
      },
    );
  }
  if (hostile.floodBytes) {
    const text = 'y'.repeat(hostile.floodBytes);
    server.registerTool(
      'flood',
      { description: 'Answers with far too much text', inputSchema: {}, annotations: { readOnlyHint: true } },
      async () => ({ content: [{ type: 'text', text }] }),
    );
  }
  server.registerTool(
    'echo',
    {
      title: 'Echo',
      description: 'Returns the text it is given',
      inputSchema: { text: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }),
  );
  server.registerTool(
    'delete_item',
    {
      description: 'Deletes an item',
      inputSchema: { id: z.number() },
      annotations: { destructiveHint: true },
    },
    async ({ id }) => ({ content: [{ type: 'text', text: `deleted ${id}` }] }),
  );
  server.registerTool(
    'post_message',
    {
      description: 'Posts a message',
      inputSchema: { text: z.string() },
      annotations: { destructiveHint: false, openWorldHint: true },
    },
    async () => ({ content: [{ type: 'text', text: 'posted' }] }),
  );
  server.registerTool('fail', { description: 'Always fails', inputSchema: {} }, async () => ({
    isError: true,
    content: [{ type: 'text', text: 'upstream exploded' }],
  }));
  return server;
}

/**
 * A Streamable HTTP MCP server on 127.0.0.1, built with the SDK's own server classes: stateless, or
 * with `sessions` stateful, as many public servers are (a session per client, ended by DELETE);
 * the hostile options make it list or answer more than any sane server would.
 */
export async function startMcpServer(
  requiredAuth?: string,
  options: HostileOptions & { sessions?: boolean } = {},
): Promise<TestMcpServer> {
  const seenHeaders: http.IncomingHttpHeaders[] = [];
  const seenPaths: string[] = [];
  const seenBodies: unknown[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const openSessions = new Set<string>();
  const httpServer = http.createServer(async (req, res) => {
    seenHeaders.push(req.headers);
    seenPaths.push(req.url ?? '');
    if (requiredAuth && req.headers.authorization !== requiredAuth) {
      res.writeHead(401).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    if (body !== undefined) seenBodies.push(body);
    if (options.sessions) {
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (!transport) {
        const server = buildServer(options);
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => crypto.randomUUID(),
          enableJsonResponse: true,
          onsessioninitialized: (sessionId) => {
            sessions.set(sessionId, transport!);
            openSessions.add(sessionId);
          },
          onsessionclosed: (sessionId) => {
            sessions.delete(sessionId);
            openSessions.delete(sessionId);
          },
        });
        await server.connect(transport);
      }
      await transport.handleRequest(req, res, body);
      return;
    }
    const server = buildServer(options);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !options.sse,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`,
    seenHeaders,
    seenPaths,
    seenBodies,
    openSessions,
    close: async () => {
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(resolve));
    },
  };
}
