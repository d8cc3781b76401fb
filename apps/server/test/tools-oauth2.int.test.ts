import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from '../src/http/errors.ts';
import { hashState } from '../src/modules/tools/oauth2.ts';
import { createVault, loadOrCreateKeyFile } from '../src/security/vault.ts';
import { startFakeServer, type FakeServer } from './support/fake-http.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { createUser } from './support/users.ts';

/**
 * The generic OAuth2 client end to end against a real authorization server (oidc-provider 8) with
 * a confidential client, PKCE S256 required, and a fake GitHub API that accepts only the access
 * tokens that server issued.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
// oidc-provider ships no type declarations; the test uses a small typed view of it.
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
  Grant: new (init: { accountId: string; clientId: string }) => {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  };
  AccessToken: { find(token: string): Promise<unknown> };
}
const loadProvider = async (): Promise<new (issuer: string, config: any) => OidcProvider> => {
  const name = 'oidc-provider';
  return ((await import(name)) as { default: new (issuer: string, config: any) => OidcProvider }).default;
};

const CLIENT_ID = 'cadre-github';
const CLIENT_SECRET = 'client-secret-0123456789abcdef0123456789abcdef';
const REDIRECT_URI = 'http://cadre.test/backend/api/v1/public/oauth2/callback/';

describe(`OAuth2 connections on ${testDatabaseKind()}`, () => {
  let issuer: string;
  let provider: OidcProvider;
  let authServer: http.Server;
  let githubApi: FakeServer;
  let t: TestApp;
  let alice: number;
  let bob: number;

  beforeAll(async () => {
    authServer = http.createServer();
    await new Promise<void>((resolve) => authServer.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(authServer.address() as AddressInfo).port}`;
    const Provider = await loadProvider();
    provider = new Provider(issuer, {
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          redirect_uris: [REDIRECT_URI],
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
        const grant = new provider.Grant({
          accountId: 'gh-user',
          clientId: String(details.params.client_id),
        });
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
    githubApi = await startFakeServer(async (req) => {
      const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      const valid = token ? await provider.AccessToken.find(token) : undefined;
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
  });
  afterAll(async () => {
    authServer?.closeAllConnections();
    await new Promise((resolve) => authServer?.close(resolve));
    await githubApi?.close();
  });
  beforeEach(async () => {
    t = await createTestApp({
      EGRESS_ALLOW_PRIVATE: '127.0.0.1',
      GITHUB_CLIENT_ID: CLIENT_ID,
      GITHUB_CLIENT_SECRET: CLIENT_SECRET,
      GITHUB_AUTHORIZE_URL: `${issuer}/auth`,
      GITHUB_TOKEN_URL: `${issuer}/token`,
      GITHUB_API_URL: githubApi.url,
    });
    alice = await createUser(t.db, 'alice');
    bob = await createUser(t.db, 'bob');
  });
  afterEach(async () => {
    await t?.close();
  });

  const github = async () =>
    (
      await t.db.kysely
        .selectFrom('services')
        .select('id')
        .where('provider_key', '=', 'github')
        .executeTakeFirstOrThrow()
    ).id;

  /** Follows the authorization server's redirects like a browser until it lands on our callback. */
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
      if (next.toString().startsWith(REDIRECT_URI)) return next;
      url = next.toString();
    }
    throw new Error('too many redirects');
  }

  const connectionRows = () => t.db.kysely.selectFrom('connections').selectAll().execute();

  it('connects with code + PKCE + state, calls the API, refreshes an expired token, and stores tokens only sealed', async () => {
    const service = await github();
    expect((await t.app.tools.listServicesForUser(alice)).find((s) => s.id === service)).toMatchObject({
      name: 'GitHub',
      auth_schemes: ['OAUTH2'],
    });
    const { redirectUrl, connectionStatus } = await t.app.tools.registerAuthService(service, alice);
    expect(connectionStatus).toBe('INITIATED');
    const authorizeRequest = new URL(redirectUrl!);
    expect(authorizeRequest.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizeRequest.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    const state = authorizeRequest.searchParams.get('state')!;
    expect(Buffer.from(state, 'base64url').length).toBeGreaterThanOrEqual(16);
    const stored = await t.db.kysely.selectFrom('oauth_states').selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.state_hash).toBe(hashState(state));
    expect(JSON.stringify(stored)).not.toContain(state);

    const landed = await authorize(redirectUrl!);
    expect(landed.searchParams.get('state')).toBe(state);
    const code = landed.searchParams.get('code')!;
    expect(
      await t.app.tools.finishOAuthCallback(
        state,
        { code, iss: landed.searchParams.get('iss') ?? undefined },
        { userId: alice },
      ),
    ).toEqual({ serviceId: service, userId: alice });
    expect(await t.db.kysely.selectFrom('oauth_states').selectAll().execute()).toEqual([]);

    const [row] = await connectionRows();
    expect(row).toMatchObject({ user_id: alice, status: 'ACTIVE' });
    const vault = createVault(loadOrCreateKeyFile(t.dataDir));
    const tokens = JSON.parse(vault.open(row!.credentials!)) as {
      access_token: string;
      refresh_token: string;
      expires_at: number;
    };
    expect(tokens.access_token).toBeTruthy();
    expect(tokens.refresh_token).toBeTruthy();
    expect(row!.credentials).not.toContain(tokens.access_token);
    expect(row!.credentials).not.toContain(tokens.refresh_token);

    const actions = await t.db.kysely
      .selectFrom('actions')
      .select(['id', 'name', 'effect'])
      .where('service_id', '=', service)
      .execute();
    const listRepos = actions.find((a) => a.name === 'list_repos')!.id;
    expect(actions.find((a) => a.name === 'create_issue')!.effect).toBe('write');
    expect(await t.app.tools.executeAction(alice, listRepos, {})).toMatchObject({
      ok: true,
      data: { repositories: [{ full_name: 'gh-user/app' }] },
    });
    expect(await t.app.tools.executeAction(bob, listRepos, {})).toMatchObject({
      ok: false,
      code: 'auth_expired',
    });

    // The access token has expired: the client refreshes it and stores the new one, sealed.
    await t.db.kysely
      .updateTable('connections')
      .set({ credentials: vault.seal(JSON.stringify({ ...tokens, expires_at: Date.now() - 1000 })) })
      .where('user_id', '=', alice)
      .execute();
    const created = await t.app.tools.executeAction(
      alice,
      actions.find((a) => a.name === 'create_issue')!.id,
      { owner: 'gh-user', repo: 'app', title: 'Bug' },
    );
    expect(created).toMatchObject({ ok: true, data: { number: 7, title: 'Bug' } });
    const refreshed = JSON.parse(vault.open((await connectionRows())[0]!.credentials!)) as {
      access_token: string;
      expires_at: number;
    };
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.expires_at).toBeGreaterThan(Date.now());
    const logs = t.logs.join('\n');
    expect(logs).not.toContain(tokens.access_token);
    expect(logs).not.toContain(refreshed.access_token);
    expect(logs).not.toContain(CLIENT_SECRET);

    // A revoked token: a clear error, no token in it, and the connection needs reconnecting.
    await t.db.kysely
      .updateTable('connections')
      .set({
        credentials: vault.seal(
          JSON.stringify({ access_token: 'at-canary-revoked-123', token_type: 'bearer' }),
        ),
      })
      .where('user_id', '=', alice)
      .execute();
    const failed = await t.app.tools.executeAction(alice, listRepos, {});
    expect(failed).toMatchObject({ ok: false, code: 'auth_expired' });
    expect(JSON.stringify(failed)).not.toContain('at-canary');
    expect((await connectionRows())[0]!.status).toBe('EXPIRED');
  });

  describe('I1: the callback refuses bad states and writes no token', () => {
    async function start(user: number) {
      const { redirectUrl } = await t.app.tools.registerAuthService(await github(), user);
      const landed = await authorize(redirectUrl!);
      return { state: landed.searchParams.get('state')!, code: landed.searchParams.get('code')! };
    }
    const refused = async (promise: Promise<unknown>) => {
      const err = await promise.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HttpError);
      expect((err as HttpError).statusCode).toBe(400);
      expect(await connectionRows()).toEqual([]);
    };

    it('missing state', async () => {
      const { code } = await start(alice);
      await refused(t.app.tools.finishOAuthCallback(undefined, { code }));
      await refused(t.app.tools.finishOAuthCallback('', { code }));
    });

    it('unknown state', async () => {
      const { code } = await start(alice);
      await refused(t.app.tools.finishOAuthCallback('x'.repeat(43), { code }));
    });

    it("another user's state", async () => {
      const { state, code } = await start(bob);
      await refused(t.app.tools.finishOAuthCallback(state, { code }, { userId: alice }));
      // The attempt spent it: Bob cannot complete it afterwards either.
      await refused(t.app.tools.finishOAuthCallback(state, { code }, { userId: bob }));
    });

    it('reused state', async () => {
      const { state, code } = await start(alice);
      await t.app.tools.finishOAuthCallback(state, { code });
      await t.db.kysely.deleteFrom('connections').execute();
      await refused(t.app.tools.finishOAuthCallback(state, { code }));
    });

    it('state older than 10 minutes', async () => {
      const { state, code } = await start(alice);
      await t.db.kysely
        .updateTable('oauth_states')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .execute();
      await refused(t.app.tools.finishOAuthCallback(state, { code }));
    });

    it('a state minted for another service', async () => {
      const { state, code } = await start(alice);
      await refused(t.app.tools.finishOAuthCallback(state, { code }, { serviceId: (await github()) + 1 }));
    });
  });
});
