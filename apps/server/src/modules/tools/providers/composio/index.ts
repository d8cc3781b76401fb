import type { Config } from '../../../../config.ts';
import { hostPolicy, safeFetch } from '../../egress.ts';
import {
  codeForStatus,
  toToolResult,
  ToolError,
  type ActionDefinition,
  type ActionEffect,
  type Credentials,
  type ServiceDefinition,
  type ToolProvider,
} from '../../provider.ts';

/**
 * Composio (v3 REST API) through the egress guard. We call the documented endpoints with plain
 * HTTP rather than `@composio/core`: the SDK bundles its own HTTP client (which would go around
 * the egress guard and its host allowlist) and declares Node >= 22. Only ids (`ca_…`, `ac_…`)
 * are stored on our side; Composio holds the third-party tokens.
 */

export const composioUserId = (userId: number) => `cadre-user-${userId}`;

interface Page<T> {
  items?: T[];
  next_cursor?: string | null;
}

interface Toolkit {
  slug: string;
  name: string;
  meta?: { description?: string; logo?: string; categories?: { name?: string }[] };
  auth_schemes?: string[];
  composio_managed_auth_schemes?: string[];
  no_auth?: boolean;
  is_deprecated?: boolean;
}

interface Tool {
  slug: string;
  name: string;
  description?: string;
  human_description?: string;
  input_parameters?: Record<string, unknown>;
  tags?: string[];
  version?: string;
  is_deprecated?: boolean;
}

interface ConnectedAccount {
  id: string;
  user_id?: string;
  status?: string;
  toolkit?: { slug?: string };
}

const MAX_PAGES = 20;

export function effectFromTags(slug: string, tags: string[] = []): ActionEffect {
  if (tags.includes('readOnlyHint') && !tags.includes('destructiveHint')) return 'read';
  if (/(^|_)(SEND|REPLY|FORWARD|POST_MESSAGE|PUBLISH)(_|$)/.test(slug)) return 'send';
  return 'write';
}

function schemeOf(toolkit: Toolkit): string {
  if (toolkit.no_auth) return 'NO_AUTH';
  const schemes = toolkit.auth_schemes ?? [];
  if (schemes.includes('OAUTH2')) return 'OAUTH2';
  return schemes[0] ?? 'OAUTH2';
}

export function createComposioProvider(config: Config): ToolProvider {
  const settings = config.tools.composio;
  if (!settings) throw new Error('Composio is not configured');
  const policy = hostPolicy(config, settings.baseUrl, { timeoutMs: 60_000, maxBytes: 8 * 1024 * 1024 });
  const authConfigs = new Map<string, string>();

  async function api<T>(
    method: string,
    path: string,
    options: { query?: Record<string, string>; body?: unknown } = {},
  ): Promise<T> {
    const url = new URL(`${settings!.baseUrl}${settings!.apiPrefix}${path}`);
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
    const res = await safeFetch(
      url,
      {
        method,
        headers: {
          'x-api-key': settings!.apiKey,
          accept: 'application/json',
          ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
      },
      policy,
    );
    if (!res.ok) {
      let message = `HTTP ${res.status}`;
      try {
        const envelope = res.json<{ error?: { message?: string; suggested_fix?: string } | string }>();
        const err = envelope.error;
        if (typeof err === 'string') message = err;
        else if (err?.message)
          message = err.suggested_fix ? `${err.message} (${err.suggested_fix})` : err.message;
      } catch {
        // keep the status
      }
      throw new ToolError(
        codeForStatus(res.status),
        `Composio: ${message.split(settings!.apiKey).join('[redacted]').slice(0, 500)}`,
      );
    }
    return res.status === 204 || res.body.length === 0 ? (undefined as T) : res.json<T>();
  }

  async function all<T>(path: string, query: Record<string, string>): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const data = await api<Page<T>>('GET', path, {
        query: { ...query, limit: '1000', ...(cursor ? { cursor } : {}) },
      });
      items.push(...(data.items ?? []));
      if (!data.next_cursor) break;
      cursor = data.next_cursor;
    }
    return items;
  }

  async function ensureAuthConfig(toolkit: string, scheme: string): Promise<string> {
    const cacheKey = `${toolkit}:${scheme}`;
    const cached = authConfigs.get(cacheKey);
    if (cached) return cached;
    const existing = await api<Page<{ id: string; status?: string; auth_scheme?: string }>>(
      'GET',
      '/auth_configs',
      {
        query: { toolkit_slug: toolkit },
      },
    );
    let id = (existing.items ?? []).find(
      (c) => (c.status ?? 'ENABLED') === 'ENABLED' && (!c.auth_scheme || c.auth_scheme === scheme),
    )?.id;
    if (!id) {
      const created = await api<{ auth_config?: { id: string }; id?: string }>('POST', '/auth_configs', {
        body:
          scheme === 'API_KEY'
            ? {
                toolkit: { slug: toolkit },
                auth_config: { type: 'use_custom_auth', authScheme: 'API_KEY', credentials: {} },
              }
            : { toolkit: { slug: toolkit }, auth_config: { type: 'use_composio_managed_auth' } },
      });
      id = created.auth_config?.id ?? created.id;
    }
    if (!id) throw new ToolError('provider_error', 'Composio did not return an auth config');
    authConfigs.set(cacheKey, id);
    return id;
  }

  /** Provider-supplied redirect URLs must be https (or a host the operator allowed), never javascript: (I3). */
  function checkRedirect(url: string): string {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ToolError('provider_error', 'Composio returned an invalid connect link');
    }
    const allowedHttp =
      parsed.protocol === 'http:' && config.tools.egressAllowPrivate.includes(parsed.hostname);
    if (parsed.protocol !== 'https:' && !allowedHttp) {
      throw new ToolError('provider_error', 'Composio returned a connect link that is not https');
    }
    return parsed.toString();
  }

  const accountIdOf = (credentials: Credentials | null, externalId?: string | null) => {
    const id = credentials?.connected_account_id ?? externalId;
    return typeof id === 'string' && id ? id : undefined;
  };

  return {
    id: 'composio',
    lazyActions: true,
    async listServices(): Promise<ServiceDefinition[]> {
      const toolkits = await all<Toolkit>('/toolkits', { sort_by: 'usage' });
      return toolkits
        .filter((t) => !t.is_deprecated && t.slug)
        .map((t) => ({
          key: t.slug,
          name: t.name,
          description: t.meta?.description ?? '',
          logo: t.meta?.logo ?? null,
          authScheme: schemeOf(t),
          metadata: {
            auth_schemes: t.auth_schemes ?? [],
            composio_managed: t.composio_managed_auth_schemes ?? [],
          },
        }));
    },
    async listActions(service): Promise<ActionDefinition[]> {
      const tools = await all<Tool>('/tools', { toolkit_slug: service.key });
      return tools
        .filter((t) => !t.is_deprecated && t.slug)
        .map((t) => ({
          name: t.slug,
          displayName: t.name,
          description: t.description ?? t.human_description ?? '',
          inputSchema: t.input_parameters ?? { type: 'object', properties: {} },
          effect: effectFromTags(t.slug, t.tags),
          version: t.version ?? null,
        }));
    },
    async connect(ctx, service, input) {
      if (input.kind === 'no_auth') return { status: 'ACTIVE' };
      if (input.kind === 'api_key') {
        const authConfigId = await ensureAuthConfig(service.key, 'API_KEY');
        const account = await api<{ id: string }>('POST', '/connected_accounts', {
          body: {
            auth_config: { id: authConfigId },
            connection: {
              user_id: composioUserId(ctx.userId),
              state: { authScheme: 'API_KEY', val: { status: 'ACTIVE', api_key: input.apiKey } },
            },
          },
        });
        return {
          status: 'ACTIVE',
          externalId: account.id,
          credentials: { connected_account_id: account.id },
        };
      }
      const authConfigId = await ensureAuthConfig(service.key, service.authScheme);
      const link = await api<{ redirect_url: string; connected_account_id: string }>(
        'POST',
        '/connected_accounts/link',
        {
          body: {
            auth_config_id: authConfigId,
            user_id: composioUserId(ctx.userId),
            callback_url: input.callbackUrl,
          },
        },
      );
      return {
        status: 'INITIATED',
        redirectUrl: checkRedirect(link.redirect_url),
        externalId: link.connected_account_id,
      };
    },
    async finishOAuth(ctx, service, input) {
      // The account we created the link for is authoritative; the query's id is only a hint.
      const expected = input.hints.expected_external_id;
      const hinted = input.hints.connected_account_id ?? input.hints.connectedAccountId;
      const id = expected ?? hinted;
      if (!id || (expected && hinted && hinted !== expected)) {
        throw new ToolError('invalid_input', 'The connected account does not match this connection request');
      }
      const account = await api<ConnectedAccount>('GET', `/connected_accounts/${encodeURIComponent(id)}`);
      if (account.user_id !== composioUserId(ctx.userId)) {
        throw new ToolError('invalid_input', 'The connected account belongs to someone else');
      }
      if (account.toolkit?.slug && account.toolkit.slug !== service.key) {
        throw new ToolError('invalid_input', 'The connected account is for another service');
      }
      if (account.status !== 'ACTIVE') {
        throw new ToolError(
          'auth_expired',
          `The connection is ${account.status ?? 'not active'}; try connecting again`,
        );
      }
      return { credentials: { connected_account_id: account.id }, externalId: account.id };
    },
    async disconnect(_ctx, _service, credentials, externalId) {
      const id = accountIdOf(credentials, externalId);
      if (!id) return;
      try {
        await api('DELETE', `/connected_accounts/${encodeURIComponent(id)}`);
      } catch (err) {
        if (!(err instanceof ToolError && err.code === 'not_found')) throw err;
      }
    },
    async execute(ctx, service, action, args, credentials) {
      try {
        if (!action.version || action.version === 'latest') {
          throw new ToolError('provider_error', 'This tool has no pinned version; sync the catalog again');
        }
        const accountId = accountIdOf(credentials);
        const result = await api<{
          data?: unknown;
          error?: string | null;
          successful?: boolean;
          log_id?: string;
        }>('POST', `/tools/execute/${encodeURIComponent(action.name)}`, {
          body: {
            arguments: args ?? {},
            user_id: composioUserId(ctx.userId),
            ...(accountId ? { connected_account_id: accountId } : {}),
            version: action.version,
          },
        });
        if (!result.successful) {
          const message =
            typeof result.error === 'string' && result.error ? result.error.slice(0, 500) : 'the tool failed';
          return {
            ok: false,
            code: 'provider_error',
            error: `${service.key}: ${message}${result.log_id ? ` (log ${result.log_id})` : ''}`,
          };
        }
        return { ok: true, data: result.data ?? null };
      } catch (err) {
        return toToolResult(err);
      }
    },
  };
}
