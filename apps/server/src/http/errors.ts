import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ValidationIssue } from '@cadre/contract';
import { isDatabaseUnavailable } from '../db/unavailable.ts';

/**
 * The one error vocabulary of the API (docs/architecture.md, "Errors"): 422 with a list of
 * `{loc, msg, type}` for bad input, `{detail}` for everything else, and never internals in a 5xx.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'HttpError';
  }
}

/** A 422 raised by a rule the schema cannot express (an unknown tool id, a blank name...). */
export class ValidationFailure extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
    this.name = 'ValidationFailure';
  }
}

export const notFound = (what = 'Not Found') => new HttpError(404, what);

/** Seconds a client is asked to wait after a 503 while the database is unavailable. */
export const DB_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
export const DB_UNAVAILABLE_BODY = {
  detail: 'Service temporarily unavailable',
  code: 'db_unavailable',
} as const;

const STATUS_DETAIL: Record<string, { status: number; detail: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, detail: 'Request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, detail: 'Unsupported content type; send JSON' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, detail: 'Content-Length does not match the body' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, detail: 'Request body is empty but declared as JSON' },
};

/** How the API answers an error: its status, headers and `{detail}` body. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: { detail: string | ValidationIssue[]; code?: string };
}

/** The answer for any error a route throws (logged here when it is the server's fault). */
export function errorAnswer(error: FastifyError, request: FastifyRequest): ErrorAnswer {
  const answer = (status: number, body: ErrorAnswer['body'], headers: Record<string, string> = {}) => ({
    status,
    headers,
    body,
  });
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = error.validationContext ?? 'body';
    const detail: ValidationIssue[] = error.validation.map((v) => ({
      loc: [where, ...pathOf(v.instancePath, v.params)],
      msg: v.message ?? 'Invalid value',
      type: v.keyword,
    }));
    return answer(422, { detail });
  }
  if (error instanceof ValidationFailure) return answer(422, { detail: error.issues });
  if (error instanceof HttpError) return answer(error.statusCode, { detail: error.detail }, error.headers);
  const known = error.code ? STATUS_DETAIL[error.code] : undefined;
  if (known) return answer(known.status, { detail: known.detail });
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return answer(400, { detail: 'Request body is not valid JSON' });
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    return answer(
      503,
      { ...DB_UNAVAILABLE_BODY },
      { 'retry-after': String(DB_UNAVAILABLE_RETRY_AFTER_SECONDS) },
    );
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return answer(status, { detail: error.message });
  request.log.error({ err: error }, 'unhandled error');
  return answer(status >= 500 ? status : 500, { detail: 'Internal Server Error' });
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, headers, body } = errorAnswer(error, request);
    return reply.code(status).headers(headers).send(body);
  });
}

function pathOf(instancePath: string, params: unknown): (string | number)[] {
  const fromPointer = instancePath
    .split('/')
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  // zod reports an unknown key as an issue on the object; name the key so the field is clear.
  const keys = (params as { keys?: string[] }).keys;
  return keys?.length ? [...fromPointer, ...keys] : fromPointer;
}
