import type { CredentialSeal } from './credentials.ts';
import { toToolResult, type Credentials, type ToolResult } from './provider.ts';
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
 * Runs an action for a user with their own connection (the chat runtime calls this). Refreshed
 * credentials are sealed again; a refused token marks the connection expired; the connection
 * records when it was used and its last error; an error message leaves without any of the
 * connection's secrets.
 */
export function createActionRunner(deps: {
  repo: ToolsRepository;
  providers: ProviderSet;
  credentials: CredentialSeal;
}) {
  const { repo, providers } = deps;
  return async function executeAction(userId: number, actionId: number, args: unknown): Promise<ToolResult> {
    const action = await repo.findActionForUser(actionId, userId);
    if (!action) return { ok: false, code: 'not_found', error: 'This tool does not exist' };
    if (action.deprecated)
      return { ok: false, code: 'not_found', error: 'This tool is no longer offered by its service' };
    if (action.connection_status !== 'ACTIVE') {
      return {
        ok: false,
        code: 'auth_expired',
        // The words the agents list and editor show for the tool, so the chat says the same.
        error: `${action.display_name} needs reconnecting: connect ${action.service_name} again on the Services page`,
      };
    }
    const credentials = deps.credentials.open(action.credentials);
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
        );
    } catch (err) {
      result = toToolResult(err);
    }
    if (result.credentials) {
      await repo.updateConnection(userId, action.service_id, {
        credentials: deps.credentials.seal(result.credentials),
      });
    }
    if (!result.ok && result.code === 'auth_expired') {
      await repo.updateConnection(userId, action.service_id, { status: 'EXPIRED' });
    }
    const at = new Date().toISOString();
    if (result.ok) {
      await repo.recordUse(userId, action.service_id, at);
      return { ok: true, data: result.data };
    }
    const error = redactSecrets(result.error, { ...credentials, ...result.credentials });
    // Wrong arguments are the caller's mistake, not the connection's: they are not its last error.
    await repo.recordUse(userId, action.service_id, at, result.code === 'invalid_input' ? undefined : error);
    return { ok: false, code: result.code, error };
  };
}
