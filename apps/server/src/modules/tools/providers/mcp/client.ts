import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Config } from '../../../../config.ts';
import { createGuardedFetch, hostPolicy } from '../../egress.ts';
import { ToolError } from '../../provider.ts';
import { limitMessages } from './limits.ts';

/**
 * The MCP SDK's client, apart from the provider (index.ts) so that it is loaded only when a server
 * is first contacted.
 */

/** Connecting (the MCP handshake) answers quickly from any healthy server. */
const CONNECT_TIMEOUT_MS = 15_000;
/** Room for the JSON-RPC envelope and SSE framing around a tool list or a result. */
const ENVELOPE_BYTES = 64 * 1024;

/** A remote server a client connects to: its URL and the headers to send (from config or the vault). */
export interface HttpTarget {
  kind: 'http';
  url: string;
  headers: Record<string, string>;
}
export type Target = HttpTarget | { kind: 'stdio'; command: string; args: string[] };

/** An open client, and whether one of its server's answers was cut off at the byte cap. */
export interface OpenClient {
  client: Client;
  close: () => Promise<void>;
  cutOff: () => boolean;
}

export async function openClient(config: Config, target: Target): Promise<OpenClient> {
  const limits = config.tools.mcpLimits;
  const client = new Client({ name: 'cadre', version: '1.0.0' });
  let transport: Transport;
  let closeFetch = async () => {};
  let cutOff = false;
  if (target.kind === 'http') {
    const maxBytes = Math.max(limits.maxToolListBytes, limits.maxResultBytes) + ENVELOPE_BYTES;
    // The SDK's own per-request timeout ends a slow call first, as a timeout the user can read.
    const policy = hostPolicy(config, target.url, { timeoutMs: limits.callTimeoutMs + 5_000, maxBytes });
    // A cut-off answer leaves the SDK waiting for a reply that never comes: closing the client
    // ends the pending request at once.
    const guarded = createGuardedFetch(policy, {
      onTooLarge: () => {
        cutOff = true;
        void client.close().catch(() => {});
      },
    });
    closeFetch = guarded.close;
    transport = new StreamableHTTPClientTransport(new URL(target.url), {
      fetch: guarded,
      requestInit: { headers: target.headers },
    });
  } else {
    transport = new StdioClientTransport({ command: target.command, args: target.args, stderr: 'ignore' });
  }
  const close = async () => {
    // A stateful server keeps a session per client until told otherwise: end it (DELETE with the
    // session id) rather than leave it to the server's own timeout.
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId)
      await transport.terminateSession().catch(() => {});
    await client.close().catch(() => {});
    await closeFetch().catch(() => {});
  };
  try {
    await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
  } catch (err) {
    await close();
    throw cutOff ? new ToolError('provider_error', limitMessages(limits).toolList) : err;
  }
  return { client, close, cutOff: () => cutOff };
}

/** The HTTP status with which a server refused the client's credentials (401 or 403), if it did. */
export function refusedStatus(err: unknown): number | undefined {
  return err instanceof StreamableHTTPError && (err.code === 401 || err.code === 403) ? err.code : undefined;
}
