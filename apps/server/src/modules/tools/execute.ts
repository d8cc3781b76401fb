import type { Telemetry } from '../../kernel.ts';
import { traceToolCall } from '../../telemetry/tool-calls.ts';
import type { ConnectionStore } from './connection-port.ts';
import type { CredentialSeal } from './credentials.ts';
import { toToolResult, type Credentials, type ExecuteOptions, type ToolResult } from './provider.ts';
import { serviceRef } from './registry.ts';
import type { ToolsRepository } from './repository.ts';
import type { ProviderSet } from './provider-set.ts';

/** Replaces every secret string in a message; the last guard before a tool error leaves us. */
export function redactSecrets(message: string, credentials: Credentials | null): string {
  if (!credentials) return message;
  let out = message;
  for (const value of Object.values(credentials)) {
    if (typeof value === 'string' && value.length >= 6) out = out.split(value).join('[redacted]');
  }
  return out;
}

/**
 * A successful call's "last used" is written only when the stored one is older than this, so a busy
 * agent's tool calls do not each write a row; failures and credential changes are always written.
 */
const LAST_USE_WRITE_INTERVAL_MS = 60_000;

/**
 * Runs an action for a user with their own connection (the chat runtime calls this). Refreshed
 * credentials are sealed again; a refused token marks the connection expired; the connection
 * records when it was used (a success at most once a minute) and its last error, in one statement;
 * an error message leaves without any of the connection's secrets. Each call is a span
 * (`execute_tool {name}`: the tool, its provider and the outcome, never its arguments or result)
 * and counts in the tool metrics.
 */
export function createActionRunner(deps: {
  repo: ToolsRepository;
  connections: ConnectionStore;
  providers: ProviderSet;
  credentials: CredentialSeal;
  telemetry?: Telemetry;
}) {
  const { repo, connections, providers, telemetry } = deps;
  const run = async (
    userId: number,
    actionId: number,
    args: unknown,
    options: ExecuteOptions,
    found: (action: { provider: string; action_name: string }) => void = () => {},
  ): Promise<ToolResult> => {
    const action = await repo.findVisibleAction(actionId, userId);
    if (!action) return { ok: false, code: 'not_found', error: 'This tool does not exist' };
    found(action);
    if (action.deprecated)
      return { ok: false, code: 'not_found', error: 'This tool is no longer offered by its service' };
    const connection = await connections.findConnection(userId, action.service_id);
    if (connection?.status !== 'ACTIVE') {
      return {
        ok: false,
        code: 'auth_expired',
        // The words the agents list and editor show for the tool, so the chat says the same.
        error: `${action.display_name} needs reconnecting: connect ${action.service_name} again on the Services page`,
      };
    }
    const credentials = deps.credentials.open(connection.credentials);
    let result: ToolResult;
    try {
      result = await providers
        .get(action.provider)
        .execute(
          { userId },
          serviceRef({ ...action, id: action.service_id }),
          { name: action.action_name, version: action.version },
          args,
          credentials,
          options,
        );
    } catch (err) {
      result = toToolResult(err);
    }
    const at = new Date().toISOString();
    const change = {
      ...(result.credentials && { credentials: deps.credentials.seal(result.credentials) }),
      ...(!result.ok && result.code === 'auth_expired' && { status: 'EXPIRED' }),
    };
    const changed = Object.keys(change).length > 0;
    if (result.ok) {
      const recentlyUsed =
        connection.last_used_at !== null &&
        Date.parse(at) - Date.parse(connection.last_used_at) < LAST_USE_WRITE_INTERVAL_MS;
      if (changed || !recentlyUsed) {
        await connections.recordUse(userId, action.service_id, { at, ...(changed && { change }) });
      }
      return { ok: true, data: result.data };
    }
    const error = redactSecrets(result.error, { ...credentials, ...result.credentials });
    // Wrong arguments are the caller's mistake, not the connection's: they are not its last error.
    await connections.recordUse(userId, action.service_id, {
      at,
      ...(result.code !== 'invalid_input' && { error }),
      ...(changed && { change }),
    });
    return { ok: false, code: result.code, error };
  };
  return async function executeAction(
    userId: number,
    actionId: number,
    args: unknown,
    options: ExecuteOptions = {},
  ): Promise<ToolResult> {
    return traceToolCall(
      telemetry,
      {
        attributes: { 'cadre.action.id': actionId, 'cadre.user.id': String(userId) },
        provider: 'unknown',
        outcomeOf: (answer: ToolResult) => (answer.ok ? 'ok' : answer.code),
      },
      (span, nameProvider) =>
        run(userId, actionId, args, options, (action) => {
          nameProvider(action.provider);
          span.setAttributes({ 'gen_ai.tool.name': action.action_name });
        }),
    );
  };
}
