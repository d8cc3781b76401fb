import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { statusOf, type ErrorCode, type ValidationIssue } from '@cadre/contract';
import { isDatabaseUnavailable } from '../db/unavailable.ts';

/**
 * The one error vocabulary of the API (docs/api.md, "Errors"): every error answer carries a `code`
 * from the contract's closed list, whose table gives its status; `detail` is a list of
 * `{loc, msg, type}` for `validation_failed` and a sentence otherwise; a 5xx never carries internals.
 */
export class HttpError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'HttpError';
    this.statusCode = statusOf(code);
  }
}

/** A 422 raised by a rule the schema cannot express (an unknown tool id, a blank name...). */
export class ValidationFailure extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
    this.name = 'ValidationFailure';
  }
}

export const notFound = (what = 'Not Found') => new HttpError('not_found', what);

/** Seconds a client is asked to wait after a 503 while the database is unavailable. */
export const DB_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
export const DB_UNAVAILABLE_BODY = {
  detail: 'Service temporarily unavailable',
  code: 'db_unavailable',
} as const;

/** Fastify's own refusals of a request, in the API's words. */
const FASTIFY_ERRORS: Record<string, { code: ErrorCode; detail: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large', detail: 'Request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    detail: 'Unsupported content type; send JSON',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'bad_request',
    detail: 'Content-Length does not match the body',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'bad_request', detail: 'Request body is empty but declared as JSON' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'bad_request', detail: 'Request body is not valid JSON' },
  FST_ERR_BAD_URL: { code: 'bad_request', detail: 'The URL is not valid (a malformed percent-encoding)' },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'bad_request', detail: 'A path parameter of the URL is too long' },
};

/**
 * The code of a client error that none of ours names (a plugin's): its status's own code, or
 * `bad_request` (whose 400 then replaces a status the vocabulary has no code for).
 */
const CODE_OF_STATUS: Partial<Record<number, ErrorCode>> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  410: 'expired',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable_content',
  429: 'rate_limited',
};

/** How the API answers an error: its status, headers and `{detail, code}` body. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: { detail: string | ValidationIssue[]; code: ErrorCode };
}

const answer = (
  code: ErrorCode,
  detail: ErrorAnswer['body']['detail'],
  headers: Record<string, string> = {},
): ErrorAnswer => ({ status: statusOf(code), headers, body: { detail, code } });

/** The answer for any error a route throws (logged here when it is the server's fault). */
export function errorAnswer(error: FastifyError, request: FastifyRequest): ErrorAnswer {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = error.validationContext ?? 'body';
    const detail: ValidationIssue[] = error.validation.map((v) => ({
      loc: [where, ...pathOf(v.instancePath, v.params)],
      msg: v.message ?? 'Invalid value',
      type: v.keyword,
    }));
    return answer('validation_failed', detail);
  }
  if (error instanceof ValidationFailure) return answer('validation_failed', error.issues);
  if (error instanceof HttpError) return answer(error.code, error.detail, error.headers);
  const known = typeof error.code === 'string' ? FASTIFY_ERRORS[error.code] : undefined;
  if (known) return answer(known.code, known.detail);
  if (error instanceof SyntaxError) return answer('bad_request', 'Request body is not valid JSON');
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    return answer('db_unavailable', DB_UNAVAILABLE_BODY.detail, {
      'retry-after': String(DB_UNAVAILABLE_RETRY_AFTER_SECONDS),
    });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return answer(CODE_OF_STATUS[status] ?? 'bad_request', error.message);
  request.log.error({ err: error }, 'unhandled error');
  return answer('internal_error', 'Internal Server Error');
}

const sendAnswer = (reply: FastifyReply, { status, headers, body }: ErrorAnswer) =>
  reply.code(status).headers(headers).send(body);

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) =>
    sendAnswer(reply, errorAnswer(error, request)),
  );
}

/**
 * Fastify's refusals of a URL it cannot route (a malformed percent-encoding, a parameter past
 * `maxParamLength`), which it answers before any error handler: the `frameworkErrors` option.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  return sendAnswer(reply, errorAnswer(error, request));
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
