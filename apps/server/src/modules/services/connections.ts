import type { Registration } from '@cadre/contract';
import type { AuditLog } from '../../kernel.ts';
import { HttpError, notFound, ValidationFailure } from '../../http/errors.ts';
import {
  serviceRef,
  toToolResult,
  type ConnectResult,
  type CredentialSeal,
  type ProviderSet,
  type ToolCatalog,
} from '../tools/index.ts';
import type { Catalog } from './catalog.ts';
import type { ConnectionRepository } from './connection-repository.ts';
import type { BrowserBinding, OAuthFlow } from './oauth-flow.ts';
import { keyCheckAnswer, viaProvider } from './provider-errors.ts';

const isNoAuth = (scheme: string) => scheme === 'NO_AUTH' || scheme === 'NO_OAUTH';
const isApiKey = (scheme: string) => scheme === 'API_KEY';
const isOAuth = (scheme: string) => !isNoAuth(scheme) && !isApiKey(scheme);

function wrongScheme(scheme: string): never {
  throw new ValidationFailure([
    {
      loc: ['path', 'service_id'],
      msg: `This service connects with ${scheme}; use the matching registration`,
      type: 'auth_scheme_mismatch',
    },
  ]);
}

/**
 * The caller's connections to services: the three registrations (spec section 3: no auth, API key,
 * OAuth), disconnecting, removing their own MCP server, and revoking everything before the user is
 * deleted. Each change is audited in the transaction that writes it (no secrets in the audit).
 */
export function createConnections(deps: {
  repo: ConnectionRepository;
  toolCatalog: ToolCatalog;
  providers: ProviderSet;
  credentials: CredentialSeal;
  audit: AuditLog;
  catalog: Catalog;
  oauth: OAuthFlow;
}) {
  const { repo, providers, credentials, audit, catalog } = deps;

  /** Stores what a provider connected at once; an ACTIVE connection is audited with the write. */
  async function save(userId: number, serviceId: number, result: ConnectResult): Promise<Registration> {
    const values = {
      status: result.status,
      external_id: result.externalId ?? null,
      credentials: credentials.seal(result.credentials),
    };
    await repo.saveConnection(
      userId,
      serviceId,
      values,
      result.status === 'ACTIVE'
        ? (trx) =>
            audit.record(
              {
                userId,
                action: 'connection.create',
                objectType: 'service',
                objectId: serviceId,
                detail: { status: result.status },
              },
              trx,
            )
        : undefined,
    );
    return { redirectUrl: null, connectionStatus: result.status };
  }

  /** Removes one connection row, audited in the same transaction. */
  const forget = (userId: number, serviceId: number, detail?: Record<string, string | boolean>) =>
    repo.deleteConnection(userId, serviceId, (trx) =>
      audit.record(
        { userId, action: 'connection.delete', objectType: 'service', objectId: serviceId, detail },
        trx,
      ),
    );

  return {
    registerNoAuthService: (serviceId: number, userId: number): Promise<Registration> =>
      viaProvider(async () => {
        const service = await catalog.visibleService(serviceId, userId);
        if (!isNoAuth(service.auth_scheme)) wrongScheme(service.auth_scheme);
        const provider = providers.get(service.provider);
        const result = await provider.connect({ userId }, serviceRef(service), { kind: 'no_auth' });
        return save(userId, service.id, result);
      }),

    /**
     * `apiKey` comes trimmed and bounded from `apiKeyBodySchema`; it is kept only in the vault, and
     * only once its provider accepted it where the provider has a cheap check.
     */
    registerApiService: (serviceId: number, userId: number, apiKey: string): Promise<Registration> =>
      viaProvider(async () => {
        const service = await catalog.visibleService(serviceId, userId);
        if (!isApiKey(service.auth_scheme)) wrongScheme(service.auth_scheme);
        const provider = providers.get(service.provider);
        const result = await provider
          .connect({ userId }, serviceRef(service), { kind: 'api_key', apiKey })
          .catch((err: unknown) => keyCheckAnswer(err, 'api_key'));
        return save(userId, service.id, result);
      }),

    /**
     * INITIATED with the URL the browser opens, or ACTIVE when the provider connected at once.
     * `browser` binds the flow to the browser that asked (see {@link BrowserBinding}).
     */
    registerAuthService: (
      serviceId: number,
      userId: number,
      browser: BrowserBinding,
    ): Promise<Registration> =>
      viaProvider(async () => {
        const service = await catalog.visibleService(serviceId, userId);
        if (!isOAuth(service.auth_scheme)) wrongScheme(service.auth_scheme);
        const result = await deps.oauth.start(userId, service, providers.get(service.provider), browser);
        if (result.status === 'ACTIVE') return save(userId, service.id, result);
        return { redirectUrl: result.redirectUrl, connectionStatus: 'INITIATED' };
      }),

    /** Revokes the connection at its provider, then deletes it. */
    disconnect: (serviceId: number, userId: number): Promise<void> =>
      viaProvider(async () => {
        const service = await catalog.visibleService(serviceId, userId);
        const connection = await repo.findConnection(userId, service.id);
        if (!connection) throw notFound('This service is not connected');
        await providers
          .get(service.provider)
          .disconnect(
            { userId },
            serviceRef(service),
            credentials.open(connection.credentials),
            connection.external_id,
          );
        await forget(userId, service.id);
      }),

    /**
     * Deletes one of the caller's own services (a custom MCP server) with its actions and the
     * connection; catalog services and other users' services answer 404.
     */
    async removeCustomService(serviceId: number, userId: number): Promise<void> {
      const service = await deps.toolCatalog.findVisibleService(serviceId, userId);
      if (!service || service.owner_user_id !== userId) throw notFound('Service not found');
      await repo.transaction(async (_queries, trx) => {
        await deps.toolCatalog.deleteOwnService(service.id, userId, trx);
        await audit.record(
          {
            userId,
            action: 'connection.delete',
            objectType: 'service',
            objectId: service.id,
            detail: { custom: true, removed: true },
          },
          trx,
        );
      });
    },

    /**
     * Revokes every connection the user holds at its provider (Composio deletes the connected
     * account) and deletes each row once revoked; runs before the user's data is deleted, and a
     * revocation that fails stops it with a 502. Connections of a provider this server no longer
     * enables have nothing to revoke here and are only deleted.
     */
    async disconnectAllForUser(userId: number): Promise<number> {
      const rows = await repo.listConnections(userId);
      const serviceOf = new Map(
        (await deps.toolCatalog.servicesByIds(rows.map((r) => r.service_id))).map((s) => [s.id, s]),
      );
      // A service deleted since the first read took its connection with it (the foreign key cascades).
      const held = rows.flatMap((row) => {
        const service = serviceOf.get(row.service_id);
        return service ? [{ ...row, service }] : [];
      });
      for (const { service, credentials: sealed, external_id } of held) {
        const provider = providers.find(service.provider);
        try {
          await provider?.disconnect(
            { userId },
            serviceRef(service),
            credentials.openQuietly(sealed),
            external_id,
          );
        } catch (err) {
          const reason = toToolResult(err).error;
          throw new HttpError(
            'provider_error',
            `Your connection to ${service.name} could not be revoked (${reason}); try again`,
          );
        }
        await forget(userId, service.id, { reason: 'user_delete' });
      }
      return held.length;
    },
  };
}
