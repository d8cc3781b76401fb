import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Config, McpServerConfig } from '../../../../config.ts';
import type { HttpTarget, OpenClient, Target } from './client.ts';
import { limitMessages, type McpLimits } from './limits.ts';
import {
  KeyCheckError,
  toToolResult,
  ToolError,
  type ActionDefinition,
  type ActionEffect,
  type Credentials,
  type ServiceRef,
  type ToolProvider,
} from '../../provider.ts';

/**
 * MCP servers as services, their tools as actions. Operators declare servers in MCP_SERVERS
 * (Streamable HTTP by URL, or stdio by command: configuration only, run by the SDK's
 * StdioClientTransport, which passes only a minimal environment). Users add their own remote
 * servers by URL only. Every HTTP request goes through the egress guard.
 */

/** Listing tools answers quickly from any healthy server. */
const LIST_TIMEOUT_MS = 15_000;
export const USER_SERVER_PREFIX = 'user-';
/** The `_meta` key of a tools/call that carries an unattended write's idempotency key. */
export const MCP_IDEMPOTENCY_KEY = 'cadre/idempotency-key';

interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    openWorldHint?: boolean;
  };
}

export function effectFromAnnotations(annotations: McpTool['annotations'] = {}): ActionEffect {
  if (annotations.readOnlyHint) return 'read';
  if (annotations.destructiveHint === false && annotations.openWorldHint) return 'send';
  return 'write';
}

export type { HttpTarget } from './client.ts';

/**
 * Connects to a server. The MCP SDK is loaded here on first use (client.ts), so a server without
 * MCP servers never loads it.
 */
const openClient = async (config: Config, target: Target) =>
  (await import('./client.ts')).openClient(config, target);

/**
 * A server's tools, refused whole (nothing is stored) when there are more than MCP_MAX_TOOLS or
 * their definitions pass MCP_MAX_TOOL_LIST_BYTES.
 */
export async function listServerTools(open: OpenClient, limits: McpLimits): Promise<ActionDefinition[]> {
  const messages = limitMessages(limits);
  const tools: McpTool[] = [];
  let bytes = 0;
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    let result: Awaited<ReturnType<Client['listTools']>>;
    try {
      result = await open.client.listTools(cursor ? { cursor } : {}, {
        timeout: Math.min(LIST_TIMEOUT_MS, limits.callTimeoutMs),
      });
    } catch (err) {
      throw open.cutOff() ? new ToolError('provider_error', messages.toolList) : err;
    }
    for (const tool of result.tools as McpTool[]) {
      bytes += Buffer.byteLength(JSON.stringify(tool));
      tools.push(tool);
    }
    if (tools.length > limits.maxTools) throw new ToolError('provider_error', messages.toolCount);
    if (bytes > limits.maxToolListBytes) throw new ToolError('provider_error', messages.toolList);
    if (!result.nextCursor) break;
    cursor = result.nextCursor;
  }
  return tools.map((t) => ({
    name: t.name,
    displayName: t.annotations?.title ?? t.title ?? t.name,
    description: t.description ?? '',
    inputSchema: t.inputSchema ?? { type: 'object', properties: {} },
    effect: effectFromAnnotations(t.annotations),
    version: null,
  }));
}

function resultText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .map((c: { type?: string; text?: string }) =>
      c?.type === 'text' && typeof c.text === 'string' ? c.text : '',
    )
    .filter(Boolean)
    .join('\n');
}

/**
 * Lists a remote server's tools once (used when a user adds their own server); a server that
 * answers 401 or 403 refused the credentials it was given (a refused {@link KeyCheckError}).
 */
export async function probeHttpServer(config: Config, target: HttpTarget): Promise<ActionDefinition[]> {
  try {
    const open = await openClient(config, target);
    try {
      return await listServerTools(open, config.tools.mcpLimits);
    } finally {
      await open.close();
    }
  } catch (err) {
    const refused = (await import('./client.ts')).refusedStatus(err);
    if (refused)
      throw new KeyCheckError(
        true,
        `The MCP server refused ${Object.keys(target.headers).length ? 'these credentials' : 'to answer without credentials'} (${refused})`,
      );
    throw err;
  }
}

export function createMcpProvider(config: Config): ToolProvider {
  const limits = config.tools.mcpLimits;
  const messages = limitMessages(limits);
  const servers = new Map<string, McpServerConfig>(config.tools.mcpServers.map((s) => [s.name, s]));
  /** Operator servers keep one client each; a failed call drops it so the next call reconnects. */
  const clients = new Map<string, Promise<OpenClient>>();

  function targetOf(service: ServiceRef, credentials: Credentials | null | undefined): Target {
    if (service.key.startsWith(USER_SERVER_PREFIX)) {
      const url = service.metadata.url;
      if (typeof url !== 'string') throw new ToolError('provider_error', 'This MCP server has no URL');
      const headers = (credentials?.headers ?? {}) as Record<string, string>;
      return { kind: 'http', url, headers };
    }
    const server = servers.get(service.key);
    if (!server) throw new ToolError('not_found', 'This MCP server is no longer configured');
    return 'url' in server
      ? { kind: 'http', url: server.url, headers: server.headers ?? {} }
      : { kind: 'stdio', command: server.command, args: server.args };
  }

  async function withClient<T>(
    service: ServiceRef,
    credentials: Credentials | null | undefined,
    fn: (c: OpenClient) => Promise<T>,
  ) {
    const target = targetOf(service, credentials);
    if (service.key.startsWith(USER_SERVER_PREFIX)) {
      const open = await openClient(config, target);
      try {
        return await fn(open);
      } finally {
        await open.close();
      }
    }
    let entry = clients.get(service.key);
    if (!entry) {
      entry = openClient(config, target);
      clients.set(service.key, entry);
      entry.catch(() => clients.delete(service.key));
    }
    try {
      return await fn(await entry);
    } catch (err) {
      clients.delete(service.key);
      await entry.then((e) => e.close()).catch(() => {});
      throw err;
    }
  }

  return {
    id: 'mcp',
    async listServices() {
      return [...servers.values()].map((s) => ({
        key: s.name,
        name: s.name,
        description: `Tools from the MCP server "${s.name}", set up by the operator of this Cadre server.`,
        logo: null,
        authScheme: 'NO_AUTH',
        metadata: { transport: 'url' in s ? 'streamable-http' : 'stdio' },
      }));
    },
    async listActions(service, credentials) {
      return withClient(service, credentials, (open) => listServerTools(open, limits));
    },
    async connect() {
      return { status: 'ACTIVE' };
    },
    async disconnect() {
      // Nothing is held at the server for a user.
    },
    async execute(_ctx, service, action, args, credentials, options = {}) {
      try {
        const result = await withClient(service, credentials, async (open) => {
          try {
            return await open.client.callTool(
              {
                name: action.name,
                arguments: (args ?? {}) as Record<string, unknown>,
                // MCP has no standard idempotency key; `_meta` is its place for such extensions.
                ...(options.idempotencyKey && { _meta: { [MCP_IDEMPOTENCY_KEY]: options.idempotencyKey } }),
              },
              undefined,
              { timeout: limits.callTimeoutMs },
            );
          } catch (err) {
            throw open.cutOff() ? new ToolError('provider_error', messages.result) : err;
          }
        });
        if (Buffer.byteLength(JSON.stringify(result)) > limits.maxResultBytes) {
          return { ok: false, code: 'provider_error', error: messages.result };
        }
        const text = resultText(result.content);
        if (result.isError) {
          return { ok: false, code: 'provider_error', error: (text || 'The MCP tool failed').slice(0, 2000) };
        }
        return { ok: true, data: result.structuredContent ?? (text || result.content) };
      } catch (err) {
        const code = (err as { code?: number })?.code;
        if (code === -32001)
          return { ok: false, code: 'timeout', error: 'The MCP server did not answer in time' };
        if (err instanceof Error && err.name === 'McpError') {
          return { ok: false, code: 'provider_error', error: 'The MCP server refused the call' };
        }
        return toToolResult(err);
      }
    },
    async close() {
      const open = [...clients.values()];
      clients.clear();
      await Promise.allSettled(open.map((e) => e.then((c) => c.close())));
    },
  };
}
