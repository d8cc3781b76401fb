import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ValidationIssue } from '@cadre/contract';
import { ValidationFailure } from './errors.ts';

/** Where in a value the first NUL character is, as a path of keys and indexes. */
function nulAt(value: unknown, depth = 0): (string | number)[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? [] : undefined;
  if (depth > 32 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return [key];
    const inner = nulAt(item, depth + 1);
    if (inner) return [Array.isArray(value) ? Number(key) : key, ...inner];
  }
  return undefined;
}

/**
 * Text with a NUL character cannot be stored by PostgreSQL (SQLite takes it), and no field of
 * Cadre's means one: such input is refused with 422 naming the field, on every route and on both
 * databases, before any handler or query sees it (the fuzz found `DELETE /demos/threads/%00`
 * answering 500 on PostgreSQL).
 */
export function refuseNulCharacters(app: FastifyInstance) {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    // Named as schema validation names them (`params`, `querystring`, `body`).
    const parts = { params: request.params, querystring: request.query, body: request.body } as const;
    for (const [where, value] of Object.entries(parts)) {
      const at = nulAt(value);
      if (!at) continue;
      const issue: ValidationIssue = {
        loc: [where, ...at],
        msg: 'must not contain a NUL character',
        type: 'value_error',
      };
      throw new ValidationFailure([issue]);
    }
  });
}
