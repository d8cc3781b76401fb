import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { OpenAiError, ValidationIssue } from '@cadre/contract';
import { errorAnswer, HttpError } from '../../http/errors.ts';

/** An error with OpenAI's `code` and `param` (an unknown model, a field the API cannot honour). */
export class OpenAiFailure extends HttpError {
  constructor(
    statusCode: number,
    message: string,
    readonly code: string | null = null,
    readonly param: string | null = null,
  ) {
    super(statusCode, message);
    this.name = 'OpenAiFailure';
  }
}

/** OpenAI's error body for a failure of ours, as a stream's error event carries it too. */
export const openAiErrorBody = (
  status: number,
  message: string,
  code: string | null = null,
): OpenAiError => ({
  message,
  type: errorType(status),
  param: null,
  code,
});

export const modelNotFound = (model: string | number) =>
  new OpenAiFailure(
    404,
    `The model '${model}' does not exist or you do not have access to it.`,
    'model_not_found',
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
 * its clients read: `{error: {message, type, param, code}}`. Bad input is a 400, as OpenAI answers
 * it, and names the field in `param`.
 */
export function openAiErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const answer = errorAnswer(error, request);
  let status = answer.status;
  let body: OpenAiError;
  if (Array.isArray(answer.body.detail)) {
    status = 400;
    const issues = answer.body.detail;
    body = {
      message: issues.map((i) => `${paramOf(i.loc) ?? 'body'}: ${i.msg}`).join('; '),
      type: errorType(status),
      param: paramOf(issues[0]?.loc ?? []),
      code: 'invalid_value',
    };
  } else {
    const failure = error instanceof OpenAiFailure ? error : undefined;
    body = {
      ...openAiErrorBody(
        status,
        answer.body.detail,
        failure?.code ?? answer.body.code ?? (status === 401 ? 'invalid_api_key' : null),
      ),
      param: failure?.param ?? null,
    };
  }
  return reply.code(status).headers(answer.headers).send({ error: body });
}
