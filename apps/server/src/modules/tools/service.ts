import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { HttpError, notFound, ValidationFailure } from '../../http/errors.ts';
import type { Vault } from '../../security/vault.ts';
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

export interface ToolsDeps {
  config: Config;
  db: Db;
  vault: Vault;
  providers: ToolProvider[];
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

    /** Runs an action for a user with their own connection; the chat runtime calls this. */
    async executeAction(userId: number, actionId: number, args: unknown): Promise<ToolResult> {
      const action = await repo.findActionForUser(db, actionId, userId);
      if (!action) return { ok: false, code: 'not_found', error: 'This tool does not exist' };
      if (action.deprecated)
        return { ok: false, code: 'not_found', error: 'This tool is no longer offered by its service' };
      const service = await repo.findServiceById(db, action.service_id);
      if (!service) return { ok: false, code: 'not_found', error: 'This tool does not exist' };
      const connection = await repo.findConnection(db, userId, service.id);
      if (!connection || connection.status !== 'ACTIVE') {
        return {
          ok: false,
          code: 'auth_expired',
          error: `Connect ${service.name} on the Services page first`,
        };
      }
      const credentials = openCredentials(connection.credentials);
      let result: ToolResult;
      try {
        result = await providerFor(service.provider).execute(
          { userId },
          serviceRef(service),
          { name: action.action_name, version: action.version },
          args,
          credentials,
        );
      } catch (err) {
        result = toToolResult(err);
      }
      if (result.credentials) {
        await repo.updateConnection(db, userId, service.id, {
          credentials: sealCredentials(result.credentials),
        });
      }
      if (!result.ok && result.code === 'auth_expired') {
        await repo.updateConnection(db, userId, service.id, { status: 'EXPIRED' });
      }
      if (result.ok) return { ok: true, data: result.data };
      const secrets = { ...credentials, ...result.credentials };
      return { ok: false, code: result.code, error: redactSecrets(result.error, secrets) };
    },
  };
}

export type ToolsService = ReturnType<typeof createToolsService>;
