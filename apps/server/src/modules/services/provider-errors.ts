import { HttpError, ValidationFailure } from '../../http/errors.ts';
import { KeyCheckError, ToolError, toToolResult } from '../tools/index.ts';

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
      throw new HttpError('provider_error', `The service provider failed: ${toToolResult(err).error}`);
    }
    throw err;
  }
}

/**
 * A key the provider refused answers 422 on the field that held it, with the provider's refusal;
 * a provider that could not be asked answers 502. Either way nothing was saved.
 */
export function keyCheckAnswer(err: unknown, field: string): never {
  if (err instanceof KeyCheckError) {
    if (err.refused)
      throw new ValidationFailure([{ loc: ['body', field], msg: err.message, type: 'key_refused' }]);
    throw new HttpError('provider_error', err.message);
  }
  throw err;
}
