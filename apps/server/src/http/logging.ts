import { createRequire } from 'node:module';
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type pretty from 'pino-pretty';
import type { Config } from '../config.ts';

/**
 * Paths pino replaces with "[redacted]" wherever they appear in a log line. Secrets must never
 * reach logs; this list is the last line of defence, not the first (code does not log secrets).
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.api_key',
  '*.apiKey',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.id_token',
  '*.client_secret',
  '*.secret',
  '*.credentials',
  '*.copilot_auth_token',
];

/**
 * Query parameters that carry secrets or personal data in URLs Cadre receives: OAuth codes and
 * states, ID tokens in sign-out links, API keys, passwords. Compared lower-case.
 */
export const SECRET_QUERY_PARAMETERS = new Set([
  'id_token_hint',
  'id_token',
  'login_hint',
  'code',
  'code_verifier',
  'state',
  'token',
  'key',
  'api_key',
  'apikey',
  'access_token',
  'refresh_token',
  'client_secret',
  'secret',
  'password',
]);

/**
 * The URL with the value of every secret query parameter replaced by `[redacted]`; everything
 * else is kept byte for byte (so a log still shows which route and which other parameters).
 */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const pairs = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      let decoded: string;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        decoded = name;
      }
      return SECRET_QUERY_PARAMETERS.has(decoded.trim().toLowerCase()) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, mark)}?${pairs.join('&')}`;
}

/** Fastify's request serializer, with the URL redacted (ASVS 25: no secrets in logs). */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * Text for a person at a terminal; JSON for anything else (a file, a pipe, a log collector) or
 * whenever LOG_FORMAT says so.
 */
export function logsAsText(config: Pick<Config, 'logFormat'>, stdoutIsTty = Boolean(process.stdout.isTTY)) {
  return config.logFormat === 'text' || (config.logFormat === 'auto' && stdoutIsTty);
}

/** Probes poll every few seconds; a line each would bury everything else at the default level. */
const isProbe = (path: string) => path.startsWith('/backend/api/v1/public/health/');

/**
 * One line per request, written when the response is sent: method, path (no query string, which
 * can carry OAuth codes), status and milliseconds. Fastify's default writes two lines (incoming
 * and completed); this replaces both.
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const path = request.url.split('?')[0] ?? request.url;
    const ms = Math.round(reply.elapsedTime);
    // Plain fields: `req` and `res` would go through Fastify's serializers, made for the objects.
    const line = {
      method: request.method,
      path,
      statusCode: reply.statusCode,
      responseTime: ms,
      ...(error ? { err: error } : {}),
    };
    const message = `${request.method} ${path} ${reply.statusCode} ${ms} ms`;
    if (error) reply.log.error(line, message);
    else if (isProbe(path)) reply.log.debug(line, message);
    else reply.log.info(line, message);
  }
}

/**
 * Pino's options: JSON lines to `stream` (stdout when none is given), or text through pino-pretty
 * when `logsAsText` says so for that destination (a terminal, or LOG_FORMAT=text).
 */
export function loggerOptions(
  config: Config,
  stream?: NodeJS.WritableStream,
): FastifyServerOptions['logger'] {
  const destinationIsTty = ((stream ?? process.stdout) as { isTTY?: boolean }).isTTY === true;
  const text = logsAsText(config, destinationIsTty);
  return {
    level: config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { req: serializeRequest },
    ...(stream ? { stream } : {}),
    // A request's line already says all there is; other lines keep their fields (an error's stack).
    ...(text
      ? {
          // Loaded only for text logs (a person at a terminal), so JSON-logging servers never load it.
          stream: (createRequire(import.meta.url)('pino-pretty') as typeof pretty)({
            // File descriptor 1 rather than process.stdout, which must never be ended.
            destination: stream ?? 1,
            translateTime: 'SYS:HH:MM:ss',
            ignore: 'pid,hostname,reqId,method,path,statusCode,responseTime',
            // In order with the banner, which is written straight to stdout.
            sync: true,
          }),
        }
      : {}),
  };
}
