import type { Config } from '../../../../config.ts';
import { hostPolicy, safeFetch } from '../../egress.ts';
import { codeForStatus, ToolError } from '../../provider.ts';

/**
 * Composio's v3 REST API through the egress guard. We call the documented endpoints with plain
 * HTTP rather than `@composio/core`: its constructor builds its HTTP client from the API key, base
 * URL and headers only, so no guarded fetch can be passed in and its requests would go around the
 * egress guard and its host allowlist (docs/architecture.md, "Composio"). Only ids (`ca_…`, `ac_…`)
 * are stored on our side; Composio holds the third-party tokens.
 */

export interface Page<T> {
  items?: T[];
  next_cursor?: string | null;
}

export interface ComposioClient {
  /** One call; a non-2xx answer throws a ToolError with Composio's message (the API key removed). */
  request<T>(
    method: string,
    path: string,
    options?: { query?: Record<string, string>; body?: unknown },
  ): Promise<T>;
  /** Every item of a cursor-paged list (bounded). */
  listAll<T>(path: string, query: Record<string, string>): Promise<T[]>;
  /** The id of an enabled auth config for a toolkit and scheme, created on first use and cached. */
  authConfigFor(toolkit: string, scheme: string): Promise<string>;
}

const MAX_PAGES = 20;

export function createComposioClient(settings: NonNullable<Config['tools']['composio']>, config: Config) {
  const policy = hostPolicy(config, settings.baseUrl, { timeoutMs: 60_000, maxBytes: 8 * 1024 * 1024 });
  const authConfigs = new Map<string, string>();

  const client: ComposioClient = {
    async request<T>(
      method: string,
      path: string,
      options: { query?: Record<string, string>; body?: unknown } = {},
    ): Promise<T> {
      const url = new URL(`${settings.baseUrl}${settings.apiPrefix}${path}`);
      for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
      const res = await safeFetch(
        url,
        {
          method,
          headers: {
            'x-api-key': settings.apiKey,
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
          `Composio: ${message.split(settings.apiKey).join('[redacted]').slice(0, 500)}`,
        );
      }
      return res.status === 204 || res.body.length === 0 ? (undefined as T) : res.json<T>();
    },

    async listAll<T>(path: string, query: Record<string, string>): Promise<T[]> {
      const items: T[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const data = await client.request<Page<T>>('GET', path, {
          query: { ...query, limit: '1000', ...(cursor ? { cursor } : {}) },
        });
        items.push(...(data.items ?? []));
        if (!data.next_cursor) break;
        cursor = data.next_cursor;
      }
      return items;
    },

    async authConfigFor(toolkit: string, scheme: string): Promise<string> {
      const cacheKey = `${toolkit}:${scheme}`;
      const cached = authConfigs.get(cacheKey);
      if (cached) return cached;
      const existing = await client.request<Page<{ id: string; status?: string; auth_scheme?: string }>>(
        'GET',
        '/auth_configs',
        { query: { toolkit_slug: toolkit } },
      );
      let id = (existing.items ?? []).find(
        (c) => (c.status ?? 'ENABLED') === 'ENABLED' && (!c.auth_scheme || c.auth_scheme === scheme),
      )?.id;
      if (!id) {
        const created = await client.request<{ auth_config?: { id: string }; id?: string }>(
          'POST',
          '/auth_configs',
          {
            body:
              scheme === 'API_KEY'
                ? {
                    toolkit: { slug: toolkit },
                    auth_config: { type: 'use_custom_auth', authScheme: 'API_KEY', credentials: {} },
                  }
                : { toolkit: { slug: toolkit }, auth_config: { type: 'use_composio_managed_auth' } },
          },
        );
        id = created.auth_config?.id ?? created.id;
      }
      if (!id) throw new ToolError('provider_error', 'Composio did not return an auth config');
      authConfigs.set(cacheKey, id);
      return id;
    },
  };
  return client;
}
