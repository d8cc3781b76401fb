import type { FastifyError, FastifyInstance } from 'fastify';
import type Provider from 'oidc-provider';
import { isDatabaseUnavailable } from '../../db/unavailable.ts';
import { DB_UNAVAILABLE_BODY, DB_UNAVAILABLE_RETRY_AFTER_SECONDS, errorAnswer } from '../../http/errors.ts';
import { messagePage, sendPage } from './views.ts';

const OUTAGE_PAGE = messagePage(
  'Sign-in unavailable',
  'Cadre cannot reach its database; retrying. This page tries again by itself.',
);

/**
 * The page loads itself again after Retry-After (the `Refresh` header browsers follow): the
 * sign-in goes on by itself once the database is back, as the web app and the chat frame do.
 */
const RELOAD_AFTER = { refresh: String(DB_UNAVAILABLE_RETRY_AFTER_SECONDS) };

/**
 * While the database cannot serve, /idp answers as the API does: 503 with Retry-After, the JSON
 * `db_unavailable` body for the token, revocation and other endpoints a program calls, a page for
 * a browser. oidc-provider answers its own endpoints after Fastify let go of the request, and turns
 * a failure into a 500 `server_error` (or a redirect carrying it), so its outcome is rewritten here.
 */
export function answerOutagesWith503(provider: Provider) {
  provider.on('server_error', (ctx: { state: Record<string, unknown> }, err: unknown) => {
    if (isDatabaseUnavailable(err)) ctx.state.databaseUnavailable = true;
  });
  provider.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      ctx.state.databaseUnavailable = true;
    }
    if (!ctx.state.databaseUnavailable) return;
    ctx.status = 503;
    ctx.remove('location');
    ctx.set('retry-after', String(DB_UNAVAILABLE_RETRY_AFTER_SECONDS));
    ctx.set('cache-control', 'no-store');
    // The same choice oidc-provider makes between its error page and its JSON error.
    if (ctx.accepts('json', 'html') === 'html') {
      ctx.set(RELOAD_AFTER);
      ctx.type = 'html';
      ctx.body = OUTAGE_PAGE;
    } else {
      ctx.body = { ...DB_UNAVAILABLE_BODY };
    }
  });
}

/** The interaction pages (Fastify routes under /idp): the outage page, other errors as usual. */
export function interactionErrors(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', String(DB_UNAVAILABLE_RETRY_AFTER_SECONDS)).headers(RELOAD_AFTER);
      return sendPage(reply, 503, OUTAGE_PAGE);
    }
    const { status, headers, body } = errorAnswer(error, request);
    return reply.code(status).headers(headers).send(body);
  });
}
