import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { HttpError, notFound, ValidationFailure } from '../../http/errors.ts';
import type { Vault } from '../../security/vault.ts';
import { checkUrl, EgressError } from './egress.ts';
import { composioUserId } from './providers/composio/index.ts';
import { probeHttpServer, USER_SERVER_PREFIX } from './providers/mcp/index.ts';
import { verifyWebhook } from './providers/composio/webhook.ts';
import { hashState, newPkce, newState, OAUTH_STATE_TTL_MS } from './oauth2.ts';
import {
  toToolResult,
  type Credentials,
  type ProviderId,
  type ToolProvider,
  type ToolResult,
} from './provider.ts';
import { serviceRef, syncCatalog } from './registry.ts';
import * as repo from './repository.ts';

/**
 * What the services routes and the chat runtime call. Every function takes the caller's user id
 * and reads only what that user may see: catalog services plus their own, their own connections.
 */

export const OAUTH_CALLBACK_PATH = '/backend/api/v1/public/oauth2/callback/';
export const composioCallbackPath = (serviceId: number) =>
  `/backend/api/v1/public/${serviceId}/composio_auth_redirect/`;

export type ConnectionStatus = 'ACTIVE' | 'INACTIVE';

export interface ServiceView {
  id: number;
  name: string;
  description: string;
  logo: string | null;
  status: ConnectionStatus;
  auth_schemes: string[];
}

export interface ActionView {
  id: number;
  display_name: string;
  name: string;
  description: string;
  logo: string | null;
  app_name: string;
}

export interface RegistrationResponse {
  redirectUrl: string | null;
  connectionStatus: string;
}

/** A Composio trigger event, resolved to its owner from our own connection rows (J5). */
export interface TriggerDelivery {
  userId: number;
  serviceId: number;
  triggerId: string | null;
  triggerSlug: string | null;
  payload: unknown;
}

export interface ToolsDeps {
  config: Config;
  db: Db;
  vault: Vault;
  providers: ToolProvider[];
  /** Hands trigger events to the agent trigger store (the agents module sets this). */
  onTrigger?: (event: TriggerDelivery) => Promise<void>;
}

export interface WebhookOutcome {
  status: 200 | 400 | 401 | 503;
  detail: string;
  event?: { type: string; duplicate?: boolean; userIds?: number[] };
}

/** Actions of lazily synced providers (Composio) are listed again after this long. */
const LAZY_ACTIONS_TTL_MS = 60 * 60 * 1000;

const isNoAuth = (scheme: string) => scheme === 'NO_AUTH' || scheme === 'NO_OAUTH';
const isApiKey = (scheme: string) => scheme === 'API_KEY';
const isOAuth = (scheme: string) => !isNoAuth(scheme) && !isApiKey(scheme);

/** Replaces every secret string in a message; the last guard before a tool error leaves us. */
export function redactSecrets(message: string, credentials: Credentials | null): string {
  if (!credentials) return message;
  let out = message;
  for (const value of Object.values(credentials)) {
    if (typeof value === 'string' && value.length >= 6) out = out.split(value).join('[redacted]');
  }
  return out;
}

export function createToolsService(deps: ToolsDeps) {
  const { db, vault, config } = deps;
  const providerFor = (id: string) => {
    const provider = deps.providers.find((p) => p.id === (id as ProviderId));
    if (!provider) throw new HttpError(503, 'This service provider is not enabled on this server');
    return provider;
  };
  const openCredentials = (sealed: string | null): Credentials | null =>
    sealed ? (JSON.parse(vault.open(sealed)) as Credentials) : null;
  /** For revocation only: a row whose credentials cannot be opened must not block a deletion. */
  const openQuietly = (sealed: string | null): Credentials | null => {
    try {
      return openCredentials(sealed);
    } catch {
      return null;
    }
  };
  const sealCredentials = (credentials: Credentials | null | undefined) =>
    credentials ? vault.seal(JSON.stringify(credentials)) : null;

  async function visibleService(serviceId: number, userId: number) {
    const service = await repo.findVisibleService(db, serviceId, userId);
    if (!service) throw notFound('Service not found');
    return service;
  }

  function wrongScheme(scheme: string): never {
    throw new ValidationFailure([
      {
        loc: ['path', 'service_id'],
        msg: `This service connects with ${scheme}; use the matching registration`,
        type: 'auth_scheme_mismatch',
      },
    ]);
  }

  async function ensureActions(service: repo.ServiceRow) {
    const provider = providerFor(service.provider);
    if (!provider.lazyActions) return;
    const ref = serviceRef(service);
    const syncedAt = Number(ref.metadata.actions_synced_at ?? 0);
    if (Date.now() - syncedAt < LAZY_ACTIONS_TTL_MS) return;
    await repo.syncActions(db, service.id, await provider.listActions(ref));
    await db.kysely
      .updateTable('services')
      .set({ metadata: JSON.stringify({ ...ref.metadata, actions_synced_at: Date.now() }) })
      .where('id', '=', service.id)
      .execute();
  }

  async function addCustomMcpServer(userId: number, body: unknown): Promise<ServiceView> {
    const fail = (field: string, msg: string, type = 'value_error'): never => {
      throw new ValidationFailure([{ loc: ['body', field], msg, type }]);
    };
    if (!body || typeof body !== 'object' || Array.isArray(body)) fail('body', 'Send a JSON object');
    const input = body as Record<string, unknown>;
    for (const forbidden of ['command', 'args', 'env', 'stdio', 'transport', 'cwd']) {
      if (forbidden in input)
        fail(forbidden, 'MCP servers are added by URL only; commands are never run', 'forbidden_field');
    }
    const allowed = new Set(['name', 'url', 'description', 'bearer_token', 'header_name', 'header_value']);
    for (const key of Object.keys(input))
      if (!allowed.has(key)) fail(key, 'Unknown field', 'extra_forbidden');
    const str = (key: string, max: number, required = false) => {
      const value = input[key];
      if (value === undefined || value === null || value === '') {
        if (required) fail(key, 'This field is required', 'missing');
        return undefined;
      }
      if (typeof value !== 'string') return fail(key, 'Must be a string', 'string_type');
      const trimmed = value.trim();
      if (required && !trimmed) fail(key, 'Must not be empty');
      if (trimmed.length > max) fail(key, `At most ${max} characters`);
      return trimmed;
    };
    const name = str('name', 80, true)!;
    const url = str('url', 2000, true)!;
    const description = str('description', 500);
    const bearer = str('bearer_token', 4096);
    const headerName = str('header_name', 100);
    const headerValue = str('header_value', 4096);
    if ((headerName === undefined) !== (headerValue === undefined))
      fail('header_value', 'Give both header_name and header_value');
    if (headerName && !/^[A-Za-z0-9-]+$/.test(headerName)) fail('header_name', 'Not a valid header name');
    if (headerName && /^(host|cookie|content-length|connection|transfer-encoding)$/i.test(headerName)) {
      fail('header_name', 'This header cannot be set');
    }
    try {
      checkUrl(url, { allowPrivate: config.tools.egressAllowPrivate });
    } catch (err) {
      fail('url', err instanceof EgressError ? err.message : 'The URL is not allowed');
    }
    const headers: Record<string, string> = {};
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    if (headerName && headerValue) headers[headerName.toLowerCase()] = headerValue;

    let actions;
    try {
      actions = await probeHttpServer(config, { kind: 'http', url, headers });
    } catch (err) {
      const reason = err instanceof EgressError ? err.message : 'it did not answer as an MCP server';
      return fail('url', `Could not connect to the MCP server: ${redactSecrets(reason, headers)}`);
    }
    const slug =
      name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')
        .slice(0, 60) || 'server';
    const serviceId = await repo.upsertService(db, 'mcp', userId, {
      key: `${USER_SERVER_PREFIX}${slug}`,
      name,
      description: description ?? `Your MCP server at ${new URL(url).host}`,
      logo: null,
      authScheme: 'NO_AUTH',
      metadata: { url, custom: true },
    });
    await repo.syncActions(db, serviceId, actions);
    await repo.saveConnection(db, userId, serviceId, {
      status: 'ACTIVE',
      external_id: null,
      credentials: sealCredentials(Object.keys(headers).length ? { headers } : null),
    });
    return {
      id: serviceId,
      name,
      description: description ?? `Your MCP server at ${new URL(url).host}`,
      logo: null,
      status: 'ACTIVE',
      auth_schemes: ['NO_AUTH'],
    };
  }

  return {
    /** Copies every provider's catalog into the database (start-up; safe to run concurrently). */
    syncCatalog: (log?: FastifyBaseLogger) => syncCatalog(db, deps.providers, log),

    async listServicesForUser(userId: number): Promise<ServiceView[]> {
      const rows = await repo.listVisibleServices(db, userId);
      return rows
        .map((r) => ({
          id: r.id,
          name: r.name,
          description: r.description,
          logo: r.logo,
          status: (r.connection_status === 'ACTIVE' ? 'ACTIVE' : 'INACTIVE') as ConnectionStatus,
          auth_schemes: [r.auth_scheme],
        }))
        .sort((a, b) =>
          a.status === b.status ? a.name.localeCompare(b.name) : a.status === 'ACTIVE' ? -1 : 1,
        );
    },

    async listActiveServices(userId: number): Promise<ServiceView[]> {
      return (await this.listServicesForUser(userId)).filter((s) => s.status === 'ACTIVE');
    },

    async listActions(serviceId: number, userId: number): Promise<ActionView[]> {
      const service = await visibleService(serviceId, userId);
      await ensureActions(service);
      const actions = await repo.listLiveActions(db, service.id);
      return actions.map((a) => ({
        id: a.id,
        display_name: a.display_name,
        name: a.name,
        description: a.description,
        logo: service.logo,
        app_name: service.name,
      }));
    },

    async registerNoAuthService(serviceId: number, userId: number): Promise<RegistrationResponse> {
      const service = await visibleService(serviceId, userId);
      if (!isNoAuth(service.auth_scheme)) wrongScheme(service.auth_scheme);
      const result = await providerFor(service.provider).connect({ userId }, serviceRef(service), {
        kind: 'no_auth',
      });
      await repo.saveConnection(db, userId, service.id, {
        status: result.status,
        external_id: result.externalId ?? null,
        credentials: sealCredentials(result.credentials),
      });
      return { redirectUrl: null, connectionStatus: result.status };
    },

    async registerApiService(
      serviceId: number,
      userId: number,
      apiKey: string,
    ): Promise<RegistrationResponse> {
      const key = typeof apiKey === 'string' ? apiKey.trim() : '';
      if (!key) {
        throw new ValidationFailure([
          { loc: ['body', 'api_key'], msg: 'The API key must not be empty', type: 'value_error' },
        ]);
      }
      if (key.length > 4096) {
        throw new ValidationFailure([
          { loc: ['body', 'api_key'], msg: 'The API key is too long', type: 'value_error' },
        ]);
      }
      const service = await visibleService(serviceId, userId);
      if (!isApiKey(service.auth_scheme)) wrongScheme(service.auth_scheme);
      const result = await providerFor(service.provider).connect({ userId }, serviceRef(service), {
        kind: 'api_key',
        apiKey: key,
      });
      await repo.saveConnection(db, userId, service.id, {
        status: result.status,
        external_id: result.externalId ?? null,
        credentials: sealCredentials(result.credentials),
      });
      return { redirectUrl: null, connectionStatus: result.status };
    },

    async registerAuthService(serviceId: number, userId: number): Promise<RegistrationResponse> {
      const service = await visibleService(serviceId, userId);
      if (!isOAuth(service.auth_scheme)) wrongScheme(service.auth_scheme);
      const provider = providerFor(service.provider);
      const { state, hash } = newState();
      const pkce = newPkce();
      const callbackUrl =
        provider.id === 'composio'
          ? `${config.publicUrl}${composioCallbackPath(service.id)}?token=${encodeURIComponent(state)}`
          : `${config.publicUrl}${OAUTH_CALLBACK_PATH}`;
      const result = await provider.connect({ userId }, serviceRef(service), {
        kind: 'oauth',
        state,
        codeChallenge: pkce.challenge,
        callbackUrl,
      });
      if (result.status === 'ACTIVE') {
        await repo.saveConnection(db, userId, service.id, {
          status: 'ACTIVE',
          external_id: result.externalId ?? null,
          credentials: sealCredentials(result.credentials),
        });
        return { redirectUrl: null, connectionStatus: 'ACTIVE' };
      }
      await repo.purgeExpiredOAuthStates(db);
      await repo.insertOAuthState(db, {
        state_hash: hash,
        user_id: userId,
        service_id: service.id,
        // The verifier and what the provider asked us to remember, sealed together.
        verifier: vault.seal(
          JSON.stringify({
            verifier: pkce.verifier,
            callbackUrl,
            externalId: result.externalId ?? null,
            pending: result.credentials ?? null,
          }),
        ),
        expires_at: new Date(Date.now() + OAUTH_STATE_TTL_MS).toISOString(),
      });
      return { redirectUrl: result.redirectUrl, connectionStatus: 'INITIATED' };
    },

    /**
     * Completes an OAuth connection from the browser's redirect. The state is looked up by its
     * hash and deleted in the same step (single use); it must be unexpired, for this service
     * (Composio's path names it) and, when the caller is signed in, for the caller. The query's
     * other values are hints the provider re-checks. Nothing is written unless all of that holds.
     */
    async finishOAuthCallback(
      stateParam: string | undefined,
      query: { code?: string; [hint: string]: string | undefined },
      expect: { serviceId?: number; userId?: number } = {},
    ): Promise<{ serviceId: number; userId: number }> {
      const refused = () =>
        new HttpError(400, 'This connection link is invalid or has expired; start the connection again');
      if (!stateParam || stateParam.length > 200) throw refused();
      const row = await repo.takeOAuthState(db, hashState(stateParam));
      if (!row) throw refused();
      if (row.expires_at < new Date().toISOString()) throw refused();
      if (expect.serviceId !== undefined && row.service_id !== expect.serviceId) throw refused();
      if (expect.userId !== undefined && row.user_id !== expect.userId) throw refused();
      const service = await repo.findVisibleService(db, row.service_id, row.user_id);
      if (!service) throw refused();
      const provider = providerFor(service.provider);
      if (!provider.finishOAuth) throw refused();
      const sealed = JSON.parse(vault.open(row.verifier)) as {
        verifier: string;
        callbackUrl: string;
        externalId: string | null;
        pending: Credentials | null;
      };
      const { code, ...hints } = query;
      let finished: Awaited<ReturnType<NonNullable<ToolProvider['finishOAuth']>>>;
      try {
        finished = await provider.finishOAuth({ userId: row.user_id }, serviceRef(service), {
          code,
          codeVerifier: sealed.verifier,
          callbackUrl: sealed.callbackUrl,
          hints: { ...hints, expected_external_id: sealed.externalId ?? undefined },
          pending: sealed.pending ?? undefined,
        });
      } catch (err) {
        const result = toToolResult(err);
        throw new HttpError(400, `The connection could not be completed: ${result.error}`);
      }
      await repo.saveConnection(db, row.user_id, service.id, {
        status: 'ACTIVE',
        external_id: finished.externalId ?? sealed.externalId ?? null,
        credentials: sealCredentials(finished.credentials),
      });
      return { serviceId: service.id, userId: row.user_id };
    },

    async disconnect(serviceId: number, userId: number): Promise<void> {
      const service = await visibleService(serviceId, userId);
      const connection = await repo.findConnection(db, userId, service.id);
      if (!connection) throw notFound('This service is not connected');
      await providerFor(service.provider).disconnect(
        { userId },
        serviceRef(service),
        openCredentials(connection.credentials),
        connection.external_id,
      );
      await repo.deleteConnection(db, userId, service.id);
    },

    /**
     * Deletes one of the caller's own services (a custom MCP server) with its actions and the
     * connection; catalog services and other users' services answer 404.
     */
    async removeCustomService(serviceId: number, userId: number): Promise<void> {
      const service = await repo.findVisibleService(db, serviceId, userId);
      if (!service || service.owner_user_id !== userId) throw notFound('Service not found');
      await db.kysely
        .deleteFrom('services')
        .where('id', '=', service.id)
        .where('owner_user_id', '=', userId)
        .execute();
    },

    /**
     * Revokes every connection the user holds at its provider (Composio deletes the connected
     * account) and deletes the rows; runs before the user's data is deleted. Connections of a
     * provider this server no longer enables have nothing to revoke here and are only deleted.
     */
    async disconnectAllForUser(userId: number): Promise<number> {
      const rows = await db.kysely
        .selectFrom('connections')
        .innerJoin('services', 'services.id', 'connections.service_id')
        .selectAll('services')
        .select(['connections.credentials as connection_credentials', 'connections.external_id'])
        .where('connections.user_id', '=', userId)
        .execute();
      for (const row of rows) {
        const provider = deps.providers.find((p) => p.id === (row.provider as ProviderId));
        if (provider) {
          try {
            await provider.disconnect(
              { userId },
              serviceRef(row),
              openQuietly(row.connection_credentials),
              row.external_id,
            );
          } catch (err) {
            const reason = toToolResult(err).error;
            throw new HttpError(
              502,
              `Your connection to ${row.name} could not be revoked (${reason}); try again`,
            );
          }
        }
        await repo.deleteConnection(db, userId, row.id);
      }
      return rows.length;
    },

    /**
     * A user's own remote MCP server (Streamable HTTP), visible only to them. Only a name, a URL
     * and an optional bearer token or header are accepted: anything that could start a process
     * (`command`, `args`, `env`, `stdio`, `transport`) is refused (F2), the URL goes through the
     * egress guard, and nothing is expanded against the environment (G4).
     */
    async addCustomMcpServer(userId: number, body: unknown): Promise<ServiceView> {
      return addCustomMcpServer(userId, body);
    },

    /**
     * `POST /api/v1/public/composio-webhook`: verifies the signature over the raw body, refuses
     * replays by webhook id, then marks expired accounts and hands trigger messages on. Owners are
     * found from our connection rows by account id; the payload's user id must agree.
     */
    async handleComposioWebhook(
      rawBody: Buffer,
      headers: Record<string, string | string[] | undefined>,
    ): Promise<WebhookOutcome> {
      const verdict = verifyWebhook({ secret: config.tools.composioWebhookSecret, headers, rawBody });
      if (!verdict.ok) return { status: verdict.status, detail: verdict.reason };
      let event: {
        type?: string;
        metadata?: {
          connected_account_id?: string;
          trigger_id?: string;
          trigger_slug?: string;
          user_id?: string;
        };
        data?: Record<string, unknown>;
      };
      try {
        event = JSON.parse(rawBody.toString('utf8')) as typeof event;
      } catch {
        return { status: 400, detail: 'The webhook body is not JSON' };
      }
      const type = typeof event?.type === 'string' ? event.type : 'unknown';
      if (!(await repo.recordWebhookDelivery(db, 'composio', verdict.id))) {
        return { status: 200, detail: 'Already processed', event: { type, duplicate: true } };
      }
      if (type === 'composio.connected_account.expired') {
        const accountId = typeof event.data?.id === 'string' ? event.data.id : undefined;
        const changed = accountId
          ? await repo.setStatusByExternalId(db, 'composio', accountId, 'EXPIRED')
          : [];
        return { status: 200, detail: 'Processed', event: { type, userIds: changed.map((c) => c.user_id) } };
      }
      if (type === 'composio.trigger.message') {
        const accountId = event.metadata?.connected_account_id;
        const owners = accountId ? await repo.findByExternalId(db, 'composio', accountId) : [];
        // Without any Composio service the event addresses nobody: ignored, not processed.
        if (!accountId || (!owners.length && !(await repo.hasProviderServices(db, 'composio'))))
          return { status: 200, detail: 'Ignored', event: { type, userIds: [] } };
        const matching = owners.filter(
          (o) => !event.metadata?.user_id || event.metadata.user_id === composioUserId(o.user_id),
        );
        for (const owner of matching) {
          await deps.onTrigger?.({
            userId: owner.user_id,
            serviceId: owner.service_id,
            triggerId: event.metadata?.trigger_id ?? null,
            triggerSlug: event.metadata?.trigger_slug ?? null,
            payload: event.data ?? null,
          });
        }
        return { status: 200, detail: 'Processed', event: { type, userIds: matching.map((o) => o.user_id) } };
      }
      return { status: 200, detail: 'Ignored', event: { type } };
    },

    /** Runs an action for a user with their own connection; the chat runtime calls this. */
    async executeAction(userId: number, actionId: number, args: unknown): Promise<ToolResult> {
      const action = await repo.findActionForUser(db, actionId, userId);
      if (!action) return { ok: false, code: 'not_found', error: 'This tool does not exist' };
      if (action.deprecated)
        return { ok: false, code: 'not_found', error: 'This tool is no longer offered by its service' };
      if (action.connection_status !== 'ACTIVE') {
        return {
          ok: false,
          code: 'auth_expired',
          error: `Connect ${action.service_name} on the Services page first`,
        };
      }
      const credentials = openCredentials(action.credentials);
      let result: ToolResult;
      try {
        result = await providerFor(action.provider).execute(
          { userId },
          serviceRef({ ...action, id: action.service_id }),
          { name: action.action_name, version: action.version },
          args,
          credentials,
        );
      } catch (err) {
        result = toToolResult(err);
      }
      if (result.credentials) {
        await repo.updateConnection(db, userId, action.service_id, {
          credentials: sealCredentials(result.credentials),
        });
      }
      if (!result.ok && result.code === 'auth_expired') {
        await repo.updateConnection(db, userId, action.service_id, { status: 'EXPIRED' });
      }
      if (result.ok) return { ok: true, data: result.data };
      const secrets = { ...credentials, ...result.credentials };
      return { ok: false, code: result.code, error: redactSecrets(result.error, secrets) };
    },
  };
}

export type ToolsService = ReturnType<typeof createToolsService>;
