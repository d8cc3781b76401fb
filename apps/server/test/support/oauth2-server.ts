import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakeServer, type FakeServer } from './fake-http.ts';

/**
 * A real OAuth2 authorization server (oidc-provider) with a confidential client that must use
 * PKCE S256, plus a fake GitHub API that accepts only the access tokens that server issued, and
 * revokes a grant (every token of it) on GitHub's `DELETE /applications/{client_id}/grant`. The
 * interaction (sign-in and consent) finishes at once as the account `gh-user`.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
// oidc-provider ships no type declarations; the tests use a small typed view of it.
interface OidcProvider {
  callback(): (req: http.IncomingMessage, res: http.ServerResponse) => void;
  interactionDetails(
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ): Promise<{ params: Record<string, unknown> }>;
  interactionFinished(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    result: unknown,
    options: unknown,
  ): Promise<void>;
  Grant: (new (init: { accountId: string; clientId: string }) => {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }) & { find(id: string): Promise<{ destroy(): Promise<void> } | undefined> };
  AccessToken: { find(token: string): Promise<{ grantId: string } | undefined> };
}
const loadProvider = async (): Promise<new (issuer: string, config: any) => OidcProvider> => {
  const name = 'oidc-provider';
  return ((await import(name)) as { default: new (issuer: string, config: any) => OidcProvider }).default;
};

export const GITHUB_CLIENT_ID = 'cadre-github';
export const GITHUB_CLIENT_SECRET = 'client-secret-0123456789abcdef0123456789abcdef';
/** The app's OAuth2 callback for `PUBLIC_URL=http://cadre.test` (createTestApp's default). */
export const OAUTH_REDIRECT_URI = 'http://cadre.test/backend/api/v1/public/oauth2/callback/';

export interface GithubOAuthServer {
  issuer: string;
  provider: OidcProvider;
  githubApi: FakeServer;
  /** Settings that point the app's GitHub service at these servers. */
  env: Record<string, string>;
  /** GitHub answers revocations with this status (e.g. 503 while it is down); none: it serves them. */
  failRevocationsWith(status: number | undefined): void;
  /** Follows the authorization server's redirects like a browser until it lands on our callback. */
  authorize(redirectUrl: string): Promise<URL>;
  close(): Promise<void>;
}

export async function startGithubOAuthServer(): Promise<GithubOAuthServer> {
  const authServer = http.createServer();
  await new Promise<void>((resolve) => authServer.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(authServer.address() as AddressInfo).port}`;
  const Provider = await loadProvider();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: GITHUB_CLIENT_ID,
        client_secret: GITHUB_CLIENT_SECRET,
        redirect_uris: [OAUTH_REDIRECT_URI],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    pkce: { required: () => true, methods: ['S256'] },
    scopes: ['openid', 'offline_access', 'repo'],
    features: { devInteractions: { enabled: false } },
    issueRefreshToken: async () => true,
    findAccount: async (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: async () => ({ sub: id }),
    }),
    cookies: { keys: ['test-cookie-key-0123456789'] },
  });
  const callback = provider.callback();
  authServer.on('request', async (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      // The user signs in and consents: finish the interaction as the provider's account.
      const details = await provider.interactionDetails(req, res);
      const grant = new provider.Grant({ accountId: 'gh-user', clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope ?? ''));
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: 'gh-user' }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    callback(req, res);
  });
  const appCredentials = `Basic ${Buffer.from(`${GITHUB_CLIENT_ID}:${GITHUB_CLIENT_SECRET}`).toString('base64')}`;
  /** A token works while its grant does: revoking the grant ends every token of it, as at GitHub. */
  const liveToken = async (token: string) => {
    const found = token ? await provider.AccessToken.find(token) : undefined;
    return found && (await provider.Grant.find(found.grantId)) ? found : undefined;
  };
  let revocationFailure: number | undefined;
  const githubApi = await startFakeServer(async (req) => {
    // GitHub's "delete an app authorization": the app's credentials, and a token of the grant.
    if (req.method === 'DELETE' && req.path === `/applications/${GITHUB_CLIENT_ID}/grant`) {
      if (revocationFailure) return { status: revocationFailure, json: { message: 'Unavailable' } };
      if (req.headers.authorization !== appCredentials)
        return { status: 404, json: { message: 'Not Found' } };
      const named = await liveToken(
        String((JSON.parse(req.body || '{}') as { access_token?: unknown }).access_token ?? ''),
      );
      if (!named) return { status: 404, json: { message: 'Not Found' } };
      await (await provider.Grant.find(named.grantId))!.destroy();
      return { status: 204 };
    }
    const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    const valid = await liveToken(token);
    if (!valid) return { status: 401, json: { message: 'Bad credentials' } };
    if (req.path === '/user/repos')
      return {
        json: [
          {
            full_name: 'gh-user/app',
            description: 'An app',
            private: false,
            html_url: 'https://github.com/gh-user/app',
          },
        ],
      };
    if (req.path === '/repos/gh-user/app/issues' && req.method === 'POST') {
      const body = JSON.parse(req.body) as { title: string };
      return {
        status: 201,
        json: {
          number: 7,
          title: body.title,
          state: 'open',
          html_url: 'https://github.com/gh-user/app/issues/7',
        },
      };
    }
    return { status: 404, json: { message: 'Not Found' } };
  });

  async function authorize(redirectUrl: string): Promise<URL> {
    const cookies = new Map<string, string>();
    let url = redirectUrl;
    for (let i = 0; i < 10; i++) {
      const res = await fetch(url, {
        redirect: 'manual',
        headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const [name, ...value] = pair!.split('=');
        cookies.set(name!, value.join('='));
      }
      const location = res.headers.get('location');
      if (!location) throw new Error(`authorization stopped with HTTP ${res.status}: ${await res.text()}`);
      const next = new URL(location, url);
      if (next.toString().startsWith(OAUTH_REDIRECT_URI)) return next;
      url = next.toString();
    }
    throw new Error('too many redirects');
  }

  return {
    issuer,
    provider,
    githubApi,
    env: {
      GITHUB_CLIENT_ID,
      GITHUB_CLIENT_SECRET,
      GITHUB_AUTHORIZE_URL: `${issuer}/auth`,
      GITHUB_TOKEN_URL: `${issuer}/token`,
      GITHUB_API_URL: githubApi.url,
    },
    authorize,
    failRevocationsWith(status) {
      revocationFailure = status;
    },
    async close() {
      authServer.closeAllConnections();
      await new Promise((resolve) => authServer.close(resolve));
      await githubApi.close();
    },
  };
}
