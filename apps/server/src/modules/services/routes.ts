import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiKeyBodySchema,
  COMPOSIO_WEBHOOK_BODY_LIMIT_BYTES,
  customMcpServerBodySchema,
  errorSchema,
  oauthCallbackQuerySchema,
  registrationSchema,
  SERVICE_PUBLIC_PATHS,
  serviceActionListSchema,
  serviceListSchema,
  serviceParamsSchema,
  serviceSchema,
  validationErrorSchema,
  type Registration,
} from '@cadre/contract';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { HttpError } from '../../http/errors.ts';
import type { ToolsService } from '../tools/index.ts';
import { newBrowserSecret, type BrowserBinding, type CallbackBrowser } from './oauth-flow.ts';
import type { ServicesService } from './service.ts';

/**
 * The cookie that binds an OAuth flow to the browser that started it (I1): `<user id>.<secret>`,
 * httpOnly, SameSite=Lax (it must ride along on the provider's top-level redirect back to us),
 * limited to the callback's path and to the state's 10 minutes. The web app starts the flow with
 * a same-origin `fetch` that includes credentials, so the cookie set on that answer is the one the
 * new tab presents at the callback. A newer flow on the same callback path replaces it.
 */
export const OAUTH_BROWSER_COOKIE = 'cadre_oauth';
const OAUTH_BROWSER_COOKIE_SECONDS = 10 * 60;

function browserOf(request: FastifyRequest): CallbackBrowser | undefined {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(request.cookies[OAUTH_BROWSER_COOKIE] ?? '');
  return match ? { userId: Number(match[1]), secret: match[2]! } : undefined;
}

const errors = { 401: errorSchema, 404: errorSchema, 422: validationErrorSchema };
/** A provider that is not enabled, or one that failed to answer. */
const providerErrors = { 502: errorSchema, 503: errorSchema };

/** Where the browser lands after a connection attempt: always our own Services screen (I2). */
const SERVICES_PAGE = '/services';

const failedRedirect = (reason: string) =>
  `${SERVICES_PAGE}?${new URLSearchParams({ connect_error: reason.slice(0, 300) })}`;

/** The three registrations of spec section 3, one route each. */
const REGISTRATIONS: {
  path: string;
  operationId: string;
  summary: string;
  body?: typeof apiKeyBodySchema;
  register(
    services: ServicesService,
    serviceId: number,
    userId: number,
    body: unknown,
    browser: BrowserBinding,
  ): Promise<Registration>;
}[] = [
  {
    path: 'register_auth_service',
    operationId: 'registerAuthService',
    summary: 'Starts an OAuth connection; the web app opens `redirectUrl` in a new tab',
    register: (services, serviceId, userId, _body, browser) =>
      services.registerAuthService(serviceId, userId, browser),
  },
  {
    path: 'register_api_service',
    operationId: 'registerApiService',
    summary: 'Connects a service with the caller’s API key (kept only in the vault)',
    body: apiKeyBodySchema,
    register: (services, serviceId, userId, body) =>
      services.registerApiService(serviceId, userId, (body as z.output<typeof apiKeyBodySchema>).api_key),
  },
  {
    path: 'register_noauth_service',
    operationId: 'registerNoauthService',
    summary: 'Connects a service that needs no credentials',
    register: (services, serviceId, userId) => services.registerNoAuthService(serviceId, userId),
  },
];

/**
 * The services calls of spec section 7 over the services service: every call is scoped to the
 * caller, so another user's custom service answers 404 like an unknown one. Also the public
 * callbacks providers send the browser to after OAuth, and Composio's webhook.
 */
export const servicesRoutes: FastifyPluginAsyncZod<{
  config: Config;
  services: ServicesService;
  tools: ToolsService;
}> = async (app, { config, services, tools }) => {
  const secureCookie = config.publicUrl.startsWith('https:');
  const cookieOptions = { httpOnly: true, sameSite: 'lax' as const, secure: secureCookie };
  // The path the browser sees, which includes PUBLIC_URL's own path when it has one.
  const basePath = new URL(config.publicUrl).pathname.replace(/\/+$/, '');

  app.get(
    '/api/v1/services/',
    {
      schema: {
        operationId: 'listServices',
        tags: ['services'],
        summary: 'Every service the caller can use, with the caller’s connection status',
        response: { 200: serviceListSchema, 401: errorSchema },
      },
    },
    async (request) => services.listServicesForUser(request.user.id),
  );

  app.get(
    '/api/v1/services/active',
    {
      schema: {
        operationId: 'listActiveServices',
        tags: ['services'],
        summary: 'The services the caller has connected',
        response: { 200: serviceListSchema, 401: errorSchema },
      },
    },
    async (request) => services.listActiveServices(request.user.id),
  );

  app.get(
    '/api/v1/services/:service_id/actions',
    {
      schema: {
        operationId: 'listServiceActions',
        tags: ['services'],
        summary: 'The actions (tools) of a service',
        params: serviceParamsSchema,
        response: { 200: serviceActionListSchema, ...errors, ...providerErrors },
      },
    },
    async (request) => services.listActions(request.params.service_id, request.user.id),
  );

  for (const { path, operationId, summary, body, register } of REGISTRATIONS) {
    app.post(
      `/api/v1/services/:service_id/${path}`,
      {
        schema: {
          operationId,
          tags: ['services'],
          summary,
          params: serviceParamsSchema,
          ...(body && { body }),
          response: { 200: registrationSchema, ...errors, ...providerErrors },
        },
      },
      async (request, reply) => {
        const secret = newBrowserSecret();
        const browser: BrowserBinding = {
          secret,
          onBound: (path) =>
            void reply.setCookie(OAUTH_BROWSER_COOKIE, `${request.user.id}.${secret}`, {
              ...cookieOptions,
              path,
              maxAge: OAUTH_BROWSER_COOKIE_SECONDS,
            }),
        };
        return register(services, request.params.service_id, request.user.id, request.body, browser);
      },
    );
  }

  app.delete(
    '/api/v1/services/:service_id/disconnect_composio_service',
    {
      schema: {
        operationId: 'disconnectService',
        tags: ['services'],
        summary: 'Disconnects the caller from a service and revokes the connection at its provider',
        params: serviceParamsSchema,
        response: { 204: z.null().describe('Disconnected'), ...errors, ...providerErrors },
      },
    },
    async (request, reply) => {
      await services.disconnect(request.params.service_id, request.user.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/services/custom_mcp',
    {
      schema: {
        operationId: 'addCustomMcpServer',
        tags: ['services'],
        summary: 'Adds the caller’s own remote MCP server (Streamable HTTP) as a service only they see',
        description:
          'By URL only: `command`, `args`, `env`, `stdio` and `transport` answer 422. The URL goes through the egress guard; an optional bearer token or header is kept in the vault.',
        body: customMcpServerBodySchema,
        response: { 201: serviceSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await services.addCustomMcpServer(request.user.id, request.body)),
  );

  app.delete(
    '/api/v1/services/:service_id',
    {
      schema: {
        operationId: 'removeCustomService',
        tags: ['services'],
        summary: 'Removes one of the caller’s own services (a custom MCP server) with its tools',
        params: serviceParamsSchema,
        response: { 204: z.null().describe('Removed'), ...errors },
      },
    },
    async (request, reply) => {
      await services.removeCustomService(request.params.service_id, request.user.id);
      return reply.code(204).send(null);
    },
  );

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
    // The binding is single use like the state: whatever happens, the browser forgets it.
    if (request.cookies[OAUTH_BROWSER_COOKIE] !== undefined) {
      reply.clearCookie(OAUTH_BROWSER_COOKIE, {
        ...cookieOptions,
        path: `${basePath}${request.url.split('?')[0]}`,
      });
    }
    if (query.error) {
      const code = query.error.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 60);
      return reply.redirect(failedRedirect(`The provider did not grant access (${code})`), 302);
    }
    try {
      await services.finishOAuthCallback(state, query, { ...expect, browser: browserOf(request) });
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
            200: errorSchema,
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
        if (outcome.status !== 200) request.log.info({ reason: outcome.detail }, 'composio webhook refused');
        else if (outcome.event) request.log.info({ event: outcome.event.type }, 'composio webhook');
        return reply.code(outcome.status).send({ detail: outcome.detail });
      },
    );
  });
};
