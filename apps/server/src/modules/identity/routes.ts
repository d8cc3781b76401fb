import type { IncomingMessage } from 'node:http';
import formBody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { notFound } from '../../http/errors.ts';
import { field, interactionPages } from './interaction-pages.ts';
import { interactionErrors } from './outage.ts';
import type { IdentityRouteOptions } from './provider.ts';
import { signUpRoutes } from './sign-up-routes.ts';
import { userinfoRoutes } from './userinfo.ts';
import { escapeHtml, messagePage, sendPage, signInPage, THEME_SCRIPT } from './views.ts';

const DISABLED_MESSAGE =
  'An administrator has disabled this account, so it cannot sign in. Ask them to enable it again.';

export const IDP_PREFIX = '/idp';

/**
 * The provider's endpoints under /idp: oidc-provider (a Koa app) answers everything except the
 * interaction pages and the avatars below, which are Fastify routes. All of them are public.
 */
export const identityRoutes: FastifyPluginAsync<IdentityRouteOptions> = async (app, options) => {
  await app.register(providerPassthrough, options);
  await app.register(interactionRoutes, options);
  await app.register(userinfoRoutes, options);
};

/**
 * The provider endpoints Cadre enables, each with the methods oidc-provider answers there (OPTIONS
 * is its CORS preflight; GET also answers HEAD). Each is a route of its own, so the app's route
 * list names every one (the two-user matrix has a row for each); anything else under /idp is the
 * server's JSON 404. The userinfo endpoint (`/me`) is Cadre's own (userinfo.ts).
 */
const PROVIDER_ENDPOINTS: Readonly<Record<string, readonly ('GET' | 'POST' | 'OPTIONS')[]>> = {
  '/.well-known/openid-configuration': ['GET', 'OPTIONS'],
  '/auth': ['GET'],
  '/auth/:uid': ['GET'],
  '/token': ['POST', 'OPTIONS'],
  '/token/revocation': ['POST', 'OPTIONS'],
  '/jwks': ['GET', 'OPTIONS'],
  '/session/end': ['GET'],
  '/session/end/confirm': ['POST'],
  '/session/end/success': ['GET'],
};

/** Hands requests to oidc-provider untouched: it parses its own bodies and writes its own answers. */
const providerPassthrough: FastifyPluginAsync<IdentityRouteOptions> = async (app, { identity }) => {
  // oidc-provider is loaded and built on the first request that needs it.
  let callback: ReturnType<Provider['callback']> | undefined;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    // oidc-provider answers every CORS preflight with the caller's origin (it cannot know the
    // client yet); only the app's and the provider's own origins get one (W4).
    const origin = request.headers.origin;
    if (request.method === 'OPTIONS' && origin !== undefined && !identity.corsOrigins.has(origin)) {
      return reply.code(204).header('vary', 'origin').send();
    }
    callback ??= (await identity.provider()).callback();
    reply.hijack();
    const raw = request.raw as IncomingMessage & { originalUrl?: string };
    const original = raw.url ?? IDP_PREFIX;
    raw.url = withResourceFromAudience(original.slice(IDP_PREFIX.length));
    // oidc-provider finds its mount path as the part of `originalUrl` before `url` (Express style).
    raw.originalUrl = `${IDP_PREFIX}${raw.url}`;
    return callback(raw, reply.raw);
  };
  for (const [path, methods] of Object.entries(PROVIDER_ENDPOINTS)) {
    app.route({
      method: [...methods],
      url: `${IDP_PREFIX}${path}`,
      config: { public: true },
      schema: { hide: true },
      handler,
    });
  }
};

/**
 * Auth0 takes the API as `audience`; the standard (RFC 8707) says `resource`. The web app sends
 * `audience`, so on the authorization endpoint it is read as `resource` when that is absent.
 */
export function withResourceFromAudience(url: string): string {
  const [pathname, query = ''] = url.split('?', 2) as [string, string?];
  if (pathname !== '/auth' || !query) return url;
  const params = new URLSearchParams(query);
  const requested = params.get('audience');
  if (requested === null || params.has('resource')) return url;
  params.delete('audience');
  params.set('resource', requested);
  return `${pathname}?${params.toString()}`;
}

const interactionRoutes: FastifyPluginAsync<IdentityRouteOptions> = async (app, options) => {
  const { identity, config, users } = options;
  interactionErrors(app);
  await app.register(formBody, { bodyLimit: 16_384 });
  await app.register(signUpRoutes, options);
  const { provider, accounts } = identity;
  const routeOptions = { config: { public: true }, schema: { hide: true } } as const;

  const pages = interactionPages(provider);
  const { finish } = pages;

  pages.route(app, 'get', '', async (request, reply, details) => {
    if (details.prompt.name === 'login') {
      return sendPage(
        reply,
        200,
        signInPage({ uid: details.uid, email: field(details.params, 'login_hint') || undefined }),
      );
    }
    if (details.prompt.name === 'consent') {
      // Cadre's own web app is first-party: its consent is given on the person's behalf.
      if (details.params.client_id !== config.auth.clientId || !details.session?.accountId) {
        return finish(request, reply, {
          error: 'access_denied',
          error_description: 'Consent is not available',
        });
      }
      const missing = details.prompt.details as {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      const { Grant } = await provider();
      const grant = details.grantId
        ? await Grant.find(details.grantId)
        : new Grant({ accountId: details.session.accountId, clientId: config.auth.clientId });
      if (!grant) return finish(request, reply, { error: 'access_denied' });
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
        grant.addResourceScope(resource, scopes.join(' '));
      }
      const grantId = await grant.save();
      return finish(request, reply, { consent: { grantId } }, true);
    }
    return finish(request, reply, { error: 'invalid_request', error_description: 'Unsupported prompt' });
  });

  pages.route(app, 'post', '/login', async (request, reply, details) => {
    const email = field(request.body, 'email');
    const password = field(request.body, 'password');
    if (!email.trim() || !password) {
      return sendPage(
        reply,
        400,
        signInPage({ uid: details.uid, email, error: 'Enter your email and password.' }),
      );
    }
    const result = await accounts.signIn({ email, password, address: request.ip });
    if (!result.ok && result.reason === 'locked') return pages.locked(reply, result.retryAfterSeconds);
    if (!result.ok) {
      return sendPage(
        reply,
        401,
        signInPage({ uid: details.uid, email, error: 'The email or password is incorrect.' }),
      );
    }
    // The password was right, so saying the account is disabled tells nothing to a guesser.
    if (await users.isDisabled({ issuer: config.auth.issuer, subject: result.account.subject })) {
      return sendPage(reply, 403, messagePage('Account disabled', DISABLED_MESSAGE, { alert: true }));
    }
    return finish(request, reply, { login: { accountId: result.account.subject } });
  });

  pages.route(app, 'post', '/abort', async (request, reply) =>
    finish(request, reply, { error: 'access_denied', error_description: 'Sign-in was cancelled' }),
  );

  // Submits the logout confirmation when the app already asked (see views.logoutPage).
  app.get('/idp/assets/logout.js', routeOptions, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send('document.querySelector(\'button[name="logout"]\')?.click();\n'),
  );

  // The theme chosen in the web app, applied before the page paints (see views.page).
  app.get('/idp/assets/theme.js', routeOptions, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(THEME_SCRIPT),
  );

  // The `picture` claim: initials on the brand colour, so no external image host is involved.
  app.get<{ Params: { file: string } }>('/idp/avatars/:file', routeOptions, async (request, reply) => {
    const subject = request.params.file.replace(/\.svg$/, '');
    const account = await accounts.findBySubject(subject);
    if (!account) return reply.send(notFound());
    const initials = account.name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]!.toUpperCase())
      .join('');
    return reply
      .type('image/svg+xml')
      .header('cache-control', 'private, max-age=3600')
      .send(
        `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><rect width="96" height="96" rx="48" fill="#0f766e"/><text x="48" y="60" font-family="system-ui,sans-serif" font-size="36" font-weight="600" fill="#fff" text-anchor="middle">${escapeHtml(initials)}</text></svg>`,
      );
  });
};
