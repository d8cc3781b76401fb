import type { FastifyServerOptions } from 'fastify';
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

export function loggerOptions(
  config: Config,
  stream?: NodeJS.WritableStream,
): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...(stream ? { stream } : {}),
  };
}
