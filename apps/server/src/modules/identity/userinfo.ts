import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { verifyAccessToken } from '../../http/auth.ts';
import type { IdentityRouteOptions } from './provider.ts';
import { accountClaims } from './service.ts';

/** Claims each scope releases, as the provider's `claims` configuration says. */
const SCOPE_CLAIMS: Record<string, string[]> = {
  profile: ['name', 'picture'],
  email: ['email', 'email_verified'],
};

/**
 * The userinfo endpoint, `/idp/me` (OpenID Connect Core 5.3). oidc-provider's own refuses every
 * access token Cadre issues: they are JWTs for the API's audience (RFC 8707 resource indicator),
 * and oidc-provider 9 serves userinfo only to tokens without an audience ("token audience prevents
 * accessing the userinfo endpoint"), looking them up in its store, where JWT tokens are not kept.
 * This one takes the same access token the API takes, checked the same way, and answers the
 * claims its scopes grant, from the account as it is now.
 */
export const userinfoRoutes: FastifyPluginAsync<IdentityRouteOptions> = async (app, { identity, config }) => {
  const keys = identity.localKeySet();
  const refuse = (reply: FastifyReply, status: number, error?: string, description?: string) =>
    reply
      .code(status)
      .header('cache-control', 'no-store')
      .header(
        'www-authenticate',
        error ? `Bearer error="${error}", error_description="${description}"` : 'Bearer',
      )
      .send(error ? { error, error_description: description } : { error: 'invalid_request' });

  const userinfo = async (request: FastifyRequest, reply: FastifyReply) => {
    const match = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(request.headers.authorization ?? '');
    if (!match) return refuse(reply, 401);
    let claims: Awaited<ReturnType<typeof verifyAccessToken>>;
    try {
      claims = await verifyAccessToken(match[1]!, keys, config.auth);
    } catch {
      return refuse(reply, 401, 'invalid_token', 'invalid token provided');
    }
    const scopes = new Set(String(claims.scope).split(' '));
    if (!scopes.has('openid'))
      return refuse(reply, 403, 'insufficient_scope', 'access token missing openid scope');
    const account = await identity.accounts.findBySubject(claims.sub);
    if (!account) return refuse(reply, 401, 'invalid_token', 'invalid token provided');
    const all: Record<string, unknown> = accountClaims(account, config.auth.issuer);
    const released: Record<string, unknown> = { sub: account.subject };
    for (const [scope, names] of Object.entries(SCOPE_CLAIMS)) {
      if (scopes.has(scope)) for (const name of names) released[name] = all[name];
    }
    return reply.header('cache-control', 'no-store').send(released);
  };

  const routeOptions = { config: { public: true }, schema: { hide: true } } as const;
  app.get('/idp/me', routeOptions, userinfo);
  app.post('/idp/me', routeOptions, userinfo);
};
