import crypto from 'node:crypto';
import { SERVICE_PUBLIC_PATHS } from '@cadre/contract';
import type { Config } from '../../config.ts';
import type { AuditLog } from '../../kernel.ts';
import { HttpError } from '../../http/errors.ts';
import { API_PREFIX } from '../../http/openapi.ts';
import {
  hashState,
  newPkce,
  newState,
  OAUTH_STATE_TTL_MS,
  serviceRef,
  toToolResult,
  ToolError,
  type ConnectResult,
  type CredentialSeal,
  type Credentials,
  type ProviderSet,
  type ServiceRow,
  type ToolCatalog,
  type ToolProvider,
} from '../tools/index.ts';
import type { ConnectionRepository } from './connection-repository.ts';

/** What is sealed with a state: the PKCE verifier and what the provider asked us to remember. */
type SealedState = {
  verifier: string;
  callbackUrl: string;
  externalId: string | null;
  pending: Credentials | null;
};

/**
 * What ties a flow to the browser that started it (I1): a random secret the browser keeps in an
 * httpOnly cookie limited to the callback path. Only its hash is stored with the state; the
 * callback completes the flow only when the browser presents the secret again.
 */
export interface BrowserBinding {
  /** At least 128 random bits, base64url. */
  secret: string;
  /** Called once a state is stored, with the path of the callback the provider will open. */
  onBound?(callbackPath: string): void;
}

/** What the browser that arrives at a callback presents: the cookie's user and secret. */
export interface CallbackBrowser {
  userId: number;
  secret: string;
}

/** A new browser secret (256 random bits). */
export const newBrowserSecret = () => crypto.randomBytes(32).toString('base64url');

const sameHash = (secret: string, stored: string | null) => {
  if (!stored) return false;
  const given = Buffer.from(hashState(secret), 'hex');
  const expected = Buffer.from(stored, 'hex');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
};

/** Where a provider sends the browser back: Composio names the service in the path, OAuth2 does not. */
export function callbackUrl(config: Config, provider: ToolProvider, serviceId: number, state: string) {
  if (provider.id !== 'composio')
    return `${config.publicUrl}${API_PREFIX}${SERVICE_PUBLIC_PATHS.oauthCallback}`;
  const path = SERVICE_PUBLIC_PATHS.composioAuthRedirect.replace(':service_id', String(serviceId));
  return `${config.publicUrl}${API_PREFIX}${path}?token=${encodeURIComponent(state)}`;
}

/**
 * I3: the link a provider gives for the browser must be https on one of the provider's hosts (or
 * plain http on a host EGRESS_ALLOW_PRIVATE lists, for a local provider); anything else (another
 * host, `javascript:`, `data:`) is refused before the browser sees it.
 */
export function checkProviderRedirect(config: Config, provider: ToolProvider, link: string): string {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new ToolError('provider_error', 'The provider returned an invalid sign-in link');
  }
  const localHttp = url.protocol === 'http:' && config.tools.egressAllowPrivate.includes(url.hostname);
  if (url.protocol !== 'https:' && !localHttp) {
    throw new ToolError('provider_error', 'The provider returned a sign-in link that is not https');
  }
  const host = url.hostname.toLowerCase();
  const expected = (provider.redirectHosts ?? []).some((h) => host === h || host.endsWith(`.${h}`));
  if (!expected && !localHttp) {
    throw new ToolError(
      'provider_error',
      `The provider returned a sign-in link to an unexpected host (${host})`,
    );
  }
  return url.toString();
}

/**
 * OAuth connections in two steps: `start` asks the provider for the URL the browser opens and keeps
 * a single-use state (stored hashed, with the sealed PKCE verifier, for 10 minutes); `finish` runs
 * when the browser comes back and stores the connection.
 */
export function createOAuthFlow(deps: {
  config: Config;
  repo: ConnectionRepository;
  toolCatalog: ToolCatalog;
  providers: ProviderSet;
  credentials: CredentialSeal;
  audit: AuditLog;
}) {
  const { config, repo, providers, credentials, audit } = deps;

  return {
    /** A provider that connects at once answers ACTIVE, and no state is kept. */
    async start(
      userId: number,
      service: ServiceRow,
      provider: ToolProvider,
      browser: BrowserBinding,
    ): Promise<ConnectResult> {
      const { state, hash } = newState();
      const pkce = newPkce();
      const sealed: SealedState = {
        verifier: pkce.verifier,
        callbackUrl: callbackUrl(config, provider, service.id, state),
        externalId: null,
        pending: null,
      };
      const result = await provider.connect({ userId }, serviceRef(service), {
        kind: 'oauth',
        state,
        codeChallenge: pkce.challenge,
        callbackUrl: sealed.callbackUrl,
      });
      if (result.status === 'ACTIVE') return result;
      const redirectUrl = checkProviderRedirect(config, provider, result.redirectUrl);
      await repo.purgeExpiredOAuthStates();
      await repo.insertOAuthState({
        state_hash: hash,
        user_id: userId,
        service_id: service.id,
        verifier: credentials.seal({
          ...sealed,
          externalId: result.externalId ?? null,
          pending: result.credentials ?? null,
        }),
        binding_hash: hashState(browser.secret),
        expires_at: new Date(Date.now() + OAUTH_STATE_TTL_MS).toISOString(),
      });
      browser.onBound?.(new URL(sealed.callbackUrl).pathname);
      return { ...result, redirectUrl };
    },

    /**
     * Completes an OAuth connection from the browser's redirect. The state is looked up by its
     * hash and deleted in the same step (single use); it must be unexpired, for this service
     * (Composio's path names it), and presented by the browser that started the flow: the
     * browser's cookie names the state's user and holds the secret whose hash the state keeps
     * (I1). The query's other values are hints the provider re-checks. Nothing is written unless
     * all of that holds.
     */
    async finish(
      stateParam: string | undefined,
      query: { code?: string; [hint: string]: string | undefined },
      expect: { serviceId?: number; browser: CallbackBrowser | undefined },
    ): Promise<{ serviceId: number; userId: number }> {
      const refused = () =>
        new HttpError(
          'bad_request',
          'This connection link is invalid or has expired; start the connection again',
        );
      if (!stateParam || stateParam.length > 200) throw refused();
      const row = await repo.takeOAuthState(hashState(stateParam));
      if (!row) throw refused();
      if (row.expires_at < new Date().toISOString()) throw refused();
      if (expect.serviceId !== undefined && row.service_id !== expect.serviceId) throw refused();
      const { browser } = expect;
      if (!browser || browser.userId !== row.user_id || !sameHash(browser.secret, row.binding_hash)) {
        throw new HttpError(
          'bad_request',
          'This connection was started in another browser or by another account; start it again from the Services page',
        );
      }
      const service = await deps.toolCatalog.findVisibleService(row.service_id, row.user_id);
      if (!service) throw refused();
      const provider = providers.get(service.provider);
      if (!provider.finishOAuth) throw refused();
      const sealed = credentials.open(row.verifier) as SealedState;
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
        throw new HttpError(
          'bad_request',
          `The connection could not be completed: ${toToolResult(err).error}`,
        );
      }
      const values = {
        status: 'ACTIVE',
        external_id: finished.externalId ?? sealed.externalId ?? null,
        credentials: credentials.seal(finished.credentials),
      };
      await repo.saveConnection(row.user_id, service.id, values, (trx) =>
        audit.record(
          {
            userId: row.user_id,
            action: 'connection.create',
            objectType: 'service',
            objectId: service.id,
            detail: { status: 'ACTIVE', oauth: true },
          },
          trx,
        ),
      );
      return { serviceId: service.id, userId: row.user_id };
    },
  };
}

export type OAuthFlow = ReturnType<typeof createOAuthFlow>;
