import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  COMPOSIO_WEBHOOK_BODY_LIMIT_BYTES,
  errorSchema,
  oauthCallbackQuerySchema,
  SERVICE_PUBLIC_PATHS,
  serviceParamsSchema,
  validationErrorSchema,
} from '@cadre/contract';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { HttpError } from '../../http/errors.ts';
import type { ToolsService } from '../tools/index.ts';
import { browserCookies } from './browser-cookie.ts';
import type { ServicesService } from './service.ts';

/** Where the browser lands after a connection attempt: always our own Services screen (I2). */
const SERVICES_PAGE = '/services';

const failedRedirect = (reason: string) =>
  `${SERVICES_PAGE}?${new URLSearchParams({ connect_error: reason.slice(0, 300) })}`;

/** What the services module's routes work with. */
export interface ServicesRouteOptions {
  config: Config;
  /** For the Idempotency-Key of a create. */
  db: Db;
  services: ServicesService;
  tools: ToolsService;
}

/**
 * The public routes of the services module: where providers send the browser back after OAuth
 * (no token; the single-use state and the starting browser's cookie name the user), and Composio's
 * signed webhook.
 */
export const serviceCallbackRoutes: FastifyPluginAsyncZod<ServicesRouteOptions> = async (
  app,
  { config, services, tools },
) => {
  const cookies = browserCookies(config);

  /**
   * The browser comes back here from a provider. The query is a hint: the services service finds
   * the single-use state by hash and re-checks everything with the provider. Either way the browser
   * goes to our own Services screen, never to a URL taken from the request (I2).
   */
  const finish = async (
    request: FastifyRequest,
    reply: FastifyReply,
    state: string | undefined,
    query: Record<string, string | undefined>,
    expect: { serviceId?: number },
  ) => {
    const browser = cookies.take(request, reply);
    if (query.error) {
      const code = query.error.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 60);
      return reply.redirect(failedRedirect(`The provider did not grant access (${code})`), 302);
    }
    try {
      await services.finishOAuthCallback(state, query, { ...expect, browser });
      return reply.redirect(SERVICES_PAGE, 302);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      return reply.redirect(failedRedirect(err.detail), 302);
    }
  };
  const redirectResponse = { 302: z.null().describe('To /services, with `connect_error` on failure') };

  app.get(
    SERVICE_PUBLIC_PATHS.oauthCallback,
    {
      config: { public: true },
      schema: {
        operationId: 'oauth2Callback',
        tags: ['public'],
        summary: 'Where an OAuth2 provider sends the browser back with `code` and `state`',
        querystring: oauthCallbackQuerySchema,
        response: { ...redirectResponse, 422: validationErrorSchema },
      },
    },
    async (request, reply) => {
      const { state, code, iss, error } = request.query;
      return finish(request, reply, state, { code, iss, error }, {});
    },
  );

  app.get(
    SERVICE_PUBLIC_PATHS.composioAuthRedirect,
    {
      config: { public: true },
      schema: {
        operationId: 'composioAuthRedirect',
        tags: ['public'],
        summary: 'Where Composio sends the browser back after a connect link (`token`, `connectedAccountId`)',
        params: serviceParamsSchema,
        querystring: oauthCallbackQuerySchema,
        response: { ...redirectResponse, 422: validationErrorSchema },
      },
    },
    async (request, reply) => {
      const q = request.query;
      return finish(
        request,
        reply,
        q.token,
        {
          connected_account_id: q.connected_account_id ?? q.connectedAccountId,
          status: q.status,
          error: q.error,
        },
        { serviceId: request.params.service_id },
      );
    },
  );

  // The webhook reads its body raw (the signature covers the exact bytes), in its own context so
  // no other route is affected; the size limit applies before the signature is checked.
  await app.register(async (webhook) => {
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    webhook.post(
      SERVICE_PUBLIC_PATHS.composioWebhook,
      {
        config: { public: true },
        bodyLimit: COMPOSIO_WEBHOOK_BODY_LIMIT_BYTES,
        schema: {
          operationId: 'composioWebhook',
          tags: ['public'],
          summary: 'Composio events, signed with the shared secret (webhook-id/-timestamp/-signature)',
          response: {
            200: z.object({ detail: z.string() }).describe('Processed, already processed or ignored'),
            400: errorSchema,
            401: errorSchema,
            413: errorSchema,
            503: errorSchema,
          },
        },
      },
      async (request, reply) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const outcome = await tools.handleComposioWebhook(raw, request.headers);
        if (!outcome.ok) {
          request.log.info({ reason: outcome.detail }, 'composio webhook refused');
          throw new HttpError(outcome.code, outcome.detail);
        }
        request.log.info({ event: outcome.event.type }, 'composio webhook');
        return reply.code(200).send({ detail: outcome.detail });
      },
    );
  });
};
