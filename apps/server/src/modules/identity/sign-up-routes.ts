import type { FastifyPluginAsync } from 'fastify';
import { HttpError } from '../../http/errors.ts';
import { field, interactionPages } from './interaction-pages.ts';
import { MIN_PASSWORD_LENGTH } from './passwords.ts';
import type { IdentityRouteOptions } from './provider.ts';
import { sendPage, signUpPage } from './views.ts';

/**
 * Sign-up at the built-in provider, behind the beta gate: the browser must hold a valid proof of
 * the access code (the web app's gate sets it), or type the code on this page, which earns one
 * the same way. A new account's user is admitted at once.
 */
export const signUpRoutes: FastifyPluginAsync<IdentityRouteOptions> = async (
  app,
  { identity, config, users },
) => {
  const { provider, accounts, gate } = identity;
  const pages = interactionPages(provider);
  const needsCode = (cookieHeader: string | undefined) => gate.enabled && !gate.hasProof(cookieHeader);

  pages.route(app, 'get', '/signup', async (request, reply, details) => {
    return sendPage(
      reply,
      200,
      signUpPage({
        uid: details.uid,
        minPasswordLength: MIN_PASSWORD_LENGTH,
        askAccessCode: needsCode(request.headers.cookie),
      }),
    );
  });

  pages.route(app, 'post', '/signup', async (request, reply, details) => {
    const input = {
      name: field(request.body, 'name'),
      email: field(request.body, 'email'),
      password: field(request.body, 'password'),
    };
    const again = (errors: Parameters<typeof signUpPage>[0]['errors'], askAccessCode: boolean) =>
      sendPage(
        reply,
        400,
        signUpPage({
          uid: details.uid,
          ...input,
          errors,
          minPasswordLength: MIN_PASSWORD_LENGTH,
          askAccessCode,
        }),
      );

    if (needsCode(request.headers.cookie)) {
      const code = field(request.body, 'access_code').trim();
      if (!code) return again({ access_code: 'Enter the access code you were given.' }, true);
      let proof: string | undefined;
      try {
        proof = await gate.redeem(code, request.ip);
      } catch (err) {
        if (err instanceof HttpError && err.code === 'rate_limited') {
          return pages.locked(reply, Number(err.headers['retry-after'] ?? 60));
        }
        throw err;
      }
      if (!proof) return again({ access_code: 'This access code is not correct.' }, true);
      reply.header('set-cookie', proof);
    }

    const result = await accounts.signUp({ ...input, address: request.ip });
    if (!result.ok && result.reason === 'locked') return pages.locked(reply, result.retryAfterSeconds);
    if (!result.ok) return again(result.errors, false);
    const { subject, email, name } = result.account;
    await users.admit({ issuer: config.auth.issuer, subject, email, name });
    return pages.finish(request, reply, { login: { accountId: subject } });
  });
};
