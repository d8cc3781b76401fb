import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { statusOf, type ErrorCode, type OpenAiError, type ValidationIssue } from '@cadre/contract';
import { errorAnswer, HttpError } from '../../http/errors.ts';

/** An error that names the request's field in OpenAI's `param` (an unknown model). */
export class OpenAiFailure extends HttpError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly param: string | null = null,
  ) {
    super(code, message);
    this.name = 'OpenAiFailure';
  }
}

/** OpenAI's error body for a failure of ours, as a stream's error event carries it too. */
export const openAiErrorBody = (code: ErrorCode, message: string): OpenAiError => ({
  message,
  type: errorType(statusOf(code)),
  param: null,
  code,
});

export const modelNotFound = (model: string | number) =>
  new OpenAiFailure(
    'not_found',
    `The model '${model}' does not exist or you do not have access to it.`,
    'model',
  );

/** OpenAI's error `type` for a status. */
export function errorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** `['body', 'messages', 0, 'content']` as OpenAI names a field: `messages[0].content`. */
function paramOf(loc: ValidationIssue['loc']): string | null {
  const path = loc[0] === 'body' || loc[0] === 'querystring' || loc[0] === 'params' ? loc.slice(1) : loc;
  if (path.length === 0) return null;
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/**
 * The API's own error answers (a refused token, bad input, a busy server) in OpenAI's shape, which
 * its clients read: `{error: {message, type, param, code}}`, with the API's error code in `code`.
 * Bad input is a 400 `bad_request`, as OpenAI answers it, and names the field in `param`.
 */
export function openAiErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const answer = errorAnswer(error, request);
  let body: OpenAiError;
  if (Array.isArray(answer.body.detail)) {
    const issues = answer.body.detail;
    body = {
      ...openAiErrorBody(
        'bad_request',
        issues.map((i) => `${paramOf(i.loc) ?? 'body'}: ${i.msg}`).join('; '),
      ),
      param: paramOf(issues[0]?.loc ?? []),
    };
  } else {
    body = {
      ...openAiErrorBody(answer.body.code, answer.body.detail),
      param: error instanceof OpenAiFailure ? error.param : null,
    };
  }
  return reply.code(statusOf(body.code)).headers(answer.headers).send({ error: body });
}
