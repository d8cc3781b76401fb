import crypto from 'node:crypto';
import { SERVICE_PUBLIC_PATHS } from '@cadre/contract';
import { z } from 'zod';
import type { Config } from '../../../../config.ts';
import type { Db } from '../../../../db/database.ts';
import { API_PREFIX } from '../../../../http/openapi.ts';
import { hostPolicy, safeFetch, type EgressPolicy, type SafeRequestInit } from '../../egress.ts';
import { codeForStatus, ToolError, type ActionEffect, type Credentials } from '../../provider.ts';
import type { KeyCheck } from './key-check.ts';

/** What a built-in action runs with: the caller, our database, settings and opened credentials. */
export interface BuiltinContext {
  userId: number;
  db: Db;
  config: Config;
  credentials: Credentials | null;
  /** Set by the service when an OAuth token was refreshed during the call, to be stored again. */
  updatedCredentials?: Credentials;
}

export interface BuiltinAction {
  name: string;
  displayName: string;
  description: string;
  effect: ActionEffect;
  input: z.ZodType;
  run(input: never, ctx: BuiltinContext): Promise<unknown>;
}

export interface BuiltinService {
  key: string;
  name: string;
  description: string;
  logo: string;
  authScheme: 'NO_AUTH' | 'API_KEY' | 'OAUTH2';
  /** Services that need settings (an OAuth app) are listed only when configured. */
  enabled?(config: Config): boolean;
  /** An API-key service's cheapest authenticated call, made before a key is saved. */
  keyCheck?(apiKey: string, config: Config): KeyCheck;
  actions: BuiltinAction[];
}

export function defineAction<S extends z.ZodType>(action: {
  name: string;
  displayName: string;
  description: string;
  effect: ActionEffect;
  input: S;
  run(input: z.output<S>, ctx: BuiltinContext): Promise<unknown>;
}): BuiltinAction {
  return action as unknown as BuiltinAction;
}

/** The JSON Schema an LLM sees for an action's input. */
export function inputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** Logo files by name, filled as the built-in services are defined; the same in every instance. */
const logoFiles = new Map<string, string>();

/**
 * A small square logo with initials, as the URL of an SVG file named by its content hash. A URL, not
 * a data URI: lists name the same few logos on every row, and a browser fetches each file once and
 * keeps it (`Cache-Control: immutable`), so a list of 100 tools stays small.
 */
export function initialsLogo(initials: string, background: string, foreground = '#ffffff'): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">` +
    `<rect width="64" height="64" rx="14" fill="${background}"/>` +
    `<text x="32" y="41" font-family="Helvetica,Arial,sans-serif" font-size="${initials.length > 2 ? 20 : 26}" ` +
    `font-weight="700" text-anchor="middle" fill="${foreground}">${initials}</text></svg>`;
  const file = `${crypto.createHash('sha256').update(svg).digest('hex').slice(0, 16)}.svg`;
  logoFiles.set(file, svg);
  return API_PREFIX + SERVICE_PUBLIC_PATHS.logo.replace(':file', file);
}

/** The SVG of a built-in logo file, if there is one by that name. */
export const logoFile = (file: string): string | undefined => logoFiles.get(file);

/** The egress policy of a built-in service: only its configured host, private only if allowed. */
export function policyFor(config: Config, baseUrl: string): EgressPolicy {
  return hostPolicy(config, baseUrl, { timeoutMs: 15_000 });
}

/** Calls a provider API and returns its JSON, turning HTTP failures into clear tool errors. */
export async function callJson<T = unknown>(
  serviceName: string,
  url: string,
  init: SafeRequestInit,
  policy: EgressPolicy,
): Promise<T> {
  const res = await safeFetch(
    url,
    { ...init, headers: { accept: 'application/json', ...init.headers } },
    policy,
  );
  if (!res.ok) {
    const hint =
      res.status === 401 || res.status === 403
        ? ': the API key or token was refused; reconnect the service'
        : res.status === 429
          ? ': rate limited, try again later'
          : res.status === 404
            ? ': not found'
            : '';
    throw new ToolError(codeForStatus(res.status), `${serviceName} answered HTTP ${res.status}${hint}`);
  }
  return res.json<T>();
}

export function requireApiKey(ctx: BuiltinContext, serviceName: string): string {
  const key = ctx.credentials?.api_key;
  if (typeof key !== 'string' || !key) {
    throw new ToolError(
      'auth_expired',
      `${serviceName} is not connected: add an API key on the Services page`,
    );
  }
  return key;
}
