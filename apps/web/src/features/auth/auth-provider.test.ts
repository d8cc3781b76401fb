import { UserManager, type User } from 'oidc-client-ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testConfig } from '../../test/render';
import { createAuthClient } from './auth-provider';
import { userManagerSettings } from './sign-in-request';

const config = {
  ...testConfig,
  disableAuth0: false,
  auth0Domain: 'http://idp.test',
  auth0ClientId: 'cadre-web',
  auth0RedirectUri: 'http://app.test',
  auth0Audience: 'cadre-api',
};

/** The provider's discovery document, as the built-in provider at /idp answers it. */
function fakeProvider() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url !== 'http://idp.test/.well-known/openid-configuration')
        return new Response(null, { status: 404 });
      return Response.json({
        issuer: 'http://idp.test',
        authorization_endpoint: 'http://idp.test/auth',
        token_endpoint: 'http://idp.test/token',
        jwks_uri: 'http://idp.test/jwks',
        end_session_endpoint: 'http://idp.test/session/end',
      });
    }),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.localStorage.clear();
  window.sessionStorage.clear();
});

describe('the sign-in client', () => {
  it('is signed out with no session in memory', async () => {
    fakeProvider();
    expect(await createAuthClient(config).isSignedIn()).toBe(false);
  });

  it('after a reload of a tab that was signed in, asks the provider silently before sending it to sign in', async () => {
    fakeProvider();
    window.sessionStorage.setItem('cadre:signed-in', 'true');
    const silent = vi.spyOn(UserManager.prototype, 'signinSilent').mockResolvedValueOnce({} as User);
    expect(await createAuthClient(config).isSignedIn()).toBe(true);
    expect(silent).toHaveBeenCalledTimes(1);
    // The provider's session is gone: the guard sends the browser to sign in, and the tab forgets it.
    silent.mockRejectedValueOnce(new Error('login_required'));
    expect(await createAuthClient(config).isSignedIn()).toBe(false);
    expect(window.sessionStorage.getItem('cadre:signed-in')).toBeNull();
    expect(await createAuthClient(config).isSignedIn()).toBe(false);
    expect(silent).toHaveBeenCalledTimes(2);
  });

  it('sends its silent sign-in back to the silent page of the app, which the provider lists', () => {
    expect(userManagerSettings(config)).toMatchObject({
      redirect_uri: 'http://app.test',
      silent_redirect_uri: 'http://app.test/silent-sign-in.html',
    });
  });

  it("builds the provider's sign-in address with PKCE, the spec's scope and the API audience", async () => {
    fakeProvider();
    const url = new URL(await createAuthClient(config).signInUrl('/agents?q=mail'));
    expect(`${url.origin}${url.pathname}`).toBe('http://idp.test/auth');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'cadre-web',
      redirect_uri: 'http://app.test',
      response_type: 'code',
      scope: 'openid profile email',
      code_challenge_method: 'S256',
      audience: 'cadre-api',
    });
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    // The state the callback reads: a redirect sign-in, coming back to the page asked for.
    const stored = JSON.parse(window.localStorage.getItem(`oidc.${url.searchParams.get('state')}`)!);
    expect(stored).toMatchObject({ request_type: 'si:r', data: { returnTo: '/agents?q=mail' } });
    expect(stored.code_verifier).toEqual(expect.any(String));
  });

  it('comes back to / rather than to an address outside the app (I2)', async () => {
    fakeProvider();
    const url = new URL(await createAuthClient(config).signInUrl('//evil.example/x'));
    const stored = JSON.parse(window.localStorage.getItem(`oidc.${url.searchParams.get('state')}`)!);
    expect(stored.data).toEqual({ returnTo: '/' });
  });

  it('with sign-in switched off, is always signed in and sends no token', async () => {
    const auth = createAuthClient({ ...config, disableAuth0: true });
    expect(auth.disabled).toBe(true);
    expect(await auth.isSignedIn()).toBe(true);
    expect(await auth.refresh()).toBe(false);
  });
});
