import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from '../src/http/errors.ts';
import { newBrowserSecret } from '../src/modules/services/oauth-flow.ts';
import { hashState } from '../src/modules/tools/oauth2.ts';
import {
  GITHUB_CLIENT_SECRET as CLIENT_SECRET,
  OAUTH_REDIRECT_URI as REDIRECT_URI,
  startGithubOAuthServer,
  type GithubOAuthServer,
} from './support/oauth2-server.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { createUser } from './support/users.ts';

/**
 * The generic OAuth2 client end to end against a real authorization server (oidc-provider) with
 * a confidential client, PKCE S256 required, and a fake GitHub API that accepts only the access
 * tokens that server issued (test/support/oauth2-server.ts).
 */

describe(`OAuth2 connections on ${testDatabaseKind()}`, () => {
  let oauth: GithubOAuthServer;
  let t: TestApp;
  let alice: number;
  let bob: number;

  beforeAll(async () => {
    oauth = await startGithubOAuthServer();
  });
  afterAll(async () => {
    await oauth?.close();
  });
  beforeEach(async () => {
    t = await createTestApp({ EGRESS_ALLOW_PRIVATE: '127.0.0.1', ...oauth.env });
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

  const authorize = (redirectUrl: string) => oauth.authorize(redirectUrl);
  /** The cookie a user's browser keeps for a flow it started (services/routes.ts sets it). */
  const browserOf = (userId: number) => ({ userId, secret: newBrowserSecret() });

  const connectionRows = () => t.db.kysely.selectFrom('connections').selectAll().execute();

  it('connects with code + PKCE + state, calls the API, refreshes an expired token, and stores tokens only sealed', async () => {
    const service = await github();
    expect((await t.app.services.listServicesForUser(alice)).find((s) => s.id === service)).toMatchObject({
      name: 'GitHub',
      auth_schemes: ['OAUTH2'],
    });
    const browser = browserOf(alice);
    const { redirectUrl, connectionStatus } = await t.app.services.registerAuthService(
      service,
      alice,
      browser,
    );
    expect(connectionStatus).toBe('INITIATED');
    const authorizeRequest = new URL(redirectUrl!);
    expect(authorizeRequest.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizeRequest.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    const state = authorizeRequest.searchParams.get('state')!;
    expect(Buffer.from(state, 'base64url').length).toBeGreaterThanOrEqual(16);
    const stored = await t.db.kysely.selectFrom('oauth_states').selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.state_hash).toBe(hashState(state));
    expect(stored[0]!.binding_hash).toBe(hashState(browser.secret));
    expect(JSON.stringify(stored)).not.toContain(state);
    expect(JSON.stringify(stored)).not.toContain(browser.secret);

    const landed = await authorize(redirectUrl!);
    expect(landed.searchParams.get('state')).toBe(state);
    const code = landed.searchParams.get('code')!;
    expect(
      await t.app.services.finishOAuthCallback(
        state,
        { code, iss: landed.searchParams.get('iss') ?? undefined },
        { browser },
      ),
    ).toEqual({ serviceId: service, userId: alice });
    expect(await t.db.kysely.selectFrom('oauth_states').selectAll().execute()).toEqual([]);

    const [row] = await connectionRows();
    expect(row).toMatchObject({ user_id: alice, status: 'ACTIVE' });
    const tokens = JSON.parse(t.vault.open(row!.credentials!)) as {
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
      .set({ credentials: t.vault.seal(JSON.stringify({ ...tokens, expires_at: Date.now() - 1000 })) })
      .where('user_id', '=', alice)
      .execute();
    const created = await t.app.tools.executeAction(
      alice,
      actions.find((a) => a.name === 'create_issue')!.id,
      { owner: 'gh-user', repo: 'app', title: 'Bug' },
    );
    expect(created).toMatchObject({ ok: true, data: { number: 7, title: 'Bug' } });
    const refreshed = JSON.parse(t.vault.open((await connectionRows())[0]!.credentials!)) as {
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
        credentials: t.vault.seal(
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
      const browser = browserOf(user);
      const { redirectUrl } = await t.app.services.registerAuthService(await github(), user, browser);
      const landed = await authorize(redirectUrl!);
      return { state: landed.searchParams.get('state')!, code: landed.searchParams.get('code')!, browser };
    }
    const refused = async (promise: Promise<unknown>) => {
      const err = await promise.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HttpError);
      expect((err as HttpError).statusCode).toBe(400);
      expect(await connectionRows()).toEqual([]);
    };

    it('missing state', async () => {
      const { code, browser } = await start(alice);
      await refused(t.app.services.finishOAuthCallback(undefined, { code }, { browser }));
      await refused(t.app.services.finishOAuthCallback('', { code }, { browser }));
    });

    it('unknown state', async () => {
      const { code, browser } = await start(alice);
      await refused(t.app.services.finishOAuthCallback('x'.repeat(43), { code }, { browser }));
    });

    it("another user's state", async () => {
      const { state, code, browser } = await start(bob);
      await refused(t.app.services.finishOAuthCallback(state, { code }, { browser: browserOf(alice) }));
      // The attempt spent it: Bob cannot complete it afterwards either.
      await refused(t.app.services.finishOAuthCallback(state, { code }, { browser }));
    });

    it("I1: a state completed in a browser without the starting browser's secret", async () => {
      const { state, code, browser } = await start(alice);
      // No cookie at all, the right user with another secret, and another user with the right secret.
      for (const other of [undefined, browserOf(alice), { userId: bob, secret: browser.secret }]) {
        const again = await start(alice);
        await refused(
          t.app.services.finishOAuthCallback(again.state, { code: again.code }, { browser: other }),
        );
      }
      expect(await t.app.services.finishOAuthCallback(state, { code }, { browser })).toEqual({
        serviceId: await github(),
        userId: alice,
      });
    });

    it('reused state', async () => {
      const { state, code, browser } = await start(alice);
      await t.app.services.finishOAuthCallback(state, { code }, { browser });
      await t.db.kysely.deleteFrom('connections').execute();
      await refused(t.app.services.finishOAuthCallback(state, { code }, { browser }));
    });

    it('state older than 10 minutes', async () => {
      const { state, code, browser } = await start(alice);
      await t.db.kysely
        .updateTable('oauth_states')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .execute();
      await refused(t.app.services.finishOAuthCallback(state, { code }, { browser }));
    });

    it('a state minted for another service', async () => {
      const { state, code, browser } = await start(alice);
      await refused(
        t.app.services.finishOAuthCallback(state, { code }, { serviceId: (await github()) + 1, browser }),
      );
    });
  });
});
