import { HttpError } from '../../http/errors.ts';
import { ToolError, toToolResult } from '../tools/index.ts';

/**
 * A provider that fails (Composio down, a refused request, the egress guard) answers 502 with the
 * tool error's message, which never holds a secret; anything else is left to the error handler.
 * Egress errors are known by name, as `toToolResult` knows them, since SDKs may rethrow them.
 */
export async function viaProvider<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ToolError || (err as { name?: string } | null)?.name === 'EgressError') {
      throw new HttpError(502, `The service provider failed: ${toToolResult(err).error}`);
    }
    throw err;
  }
}
