import { type z } from 'zod';
import type { Config } from '../../../../config.ts';
import type { Db } from '../../../../db/database.ts';
import { authorizeUrl, exchangeCode } from '../../oauth2.ts';
import { toToolResult, ToolError, type ToolProvider } from '../../provider.ts';
import { places, weather, webSearch, youtube } from './api-key-services.ts';
import { calculator } from './calculator.ts';
import { calendar } from './calendar.ts';
import { dateTime } from './datetime.ts';
import { inputJsonSchema, type BuiltinContext, type BuiltinService } from './define.ts';
import { githubOAuthConfig, githubService, revokeGithubGrant } from './github.ts';
import { hackerNews } from './hacker-news.ts';
import { checkKey } from './key-check.ts';
import { notes } from './notes.ts';
import { webReader } from './web-reader.ts';
import { wikipedia } from './wikipedia.ts';

/** The services Cadre ships: they work with no account (or with the user's own API key). */
export const BUILTIN_SERVICES: BuiltinService[] = [
  calculator,
  dateTime,
  notes,
  calendar,
  webReader,
  hackerNews,
  wikipedia,
  webSearch,
  youtube,
  places,
  weather,
  githubService,
];

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || 'input'}: ${i.message}`)
    .join('; ');
}

export function createBuiltinProvider(deps: { config: Config; db: Db }): ToolProvider {
  const enabled = () => BUILTIN_SERVICES.filter((s) => !s.enabled || s.enabled(deps.config));
  const find = (key: string) => {
    const service = enabled().find((s) => s.key === key);
    if (!service) throw new ToolError('not_found', 'This service is not available');
    return service;
  };
  const github = githubOAuthConfig(deps.config);
  return {
    id: 'builtin',
    redirectHosts: github ? [new URL(github.authorizeUrl).hostname] : [],
    async listServices() {
      return enabled().map((s) => ({
        key: s.key,
        name: s.name,
        description: s.description,
        logo: s.logo,
        authScheme: s.authScheme,
      }));
    },
    async listActions(service) {
      return find(service.key).actions.map((a) => ({
        name: a.name,
        displayName: a.displayName,
        description: a.description,
        inputSchema: inputJsonSchema(a.input),
        effect: a.effect,
        version: null,
      }));
    },
    async connect(_ctx, service, input) {
      const def = find(service.key);
      if (input.kind === 'no_auth') return { status: 'ACTIVE' };
      if (input.kind === 'api_key') {
        if (def.keyCheck) await checkKey(def.keyCheck(input.apiKey, deps.config), deps.config);
        return { status: 'ACTIVE', credentials: { api_key: input.apiKey } };
      }
      const cfg = def.key === 'github' ? githubOAuthConfig(deps.config) : undefined;
      if (!cfg) throw new ToolError('provider_error', 'This service has no OAuth configuration');
      return {
        status: 'INITIATED',
        redirectUrl: authorizeUrl(cfg, {
          state: input.state,
          codeChallenge: input.codeChallenge,
          redirectUri: input.callbackUrl,
        }),
      };
    },
    async finishOAuth(_ctx, service, input) {
      const cfg = service.key === 'github' ? githubOAuthConfig(deps.config) : undefined;
      if (!cfg) throw new ToolError('provider_error', 'This service has no OAuth configuration');
      if (!input.code) throw new ToolError('invalid_input', 'The authorization server sent no code');
      const tokens = await exchangeCode(cfg, {
        code: input.code,
        codeVerifier: input.codeVerifier,
        redirectUri: input.callbackUrl,
      });
      return { credentials: tokens };
    },
    async disconnect(_ctx, service, credentials) {
      // GitHub's grant is revoked at GitHub; the other services' credentials (API keys the user
      // made, or none) live only in our connection row, which the service deletes.
      const token = credentials?.access_token;
      if (service.key === 'github' && typeof token === 'string') await revokeGithubGrant(deps.config, token);
    },
    async execute(ctx, service, action, args, credentials) {
      const ctxFull: BuiltinContext = { userId: ctx.userId, db: deps.db, config: deps.config, credentials };
      try {
        const def = find(service.key).actions.find((a) => a.name === action.name);
        if (!def) throw new ToolError('not_found', `Unknown action ${action.name}`);
        const parsed = def.input.safeParse(args ?? {});
        if (!parsed.success) throw new ToolError('invalid_input', describeIssues(parsed.error));
        const data = await def.run(parsed.data as never, ctxFull);
        return { ok: true, data, credentials: ctxFull.updatedCredentials };
      } catch (err) {
        return { ...toToolResult(err), credentials: ctxFull.updatedCredentials };
      }
    },
  };
}
