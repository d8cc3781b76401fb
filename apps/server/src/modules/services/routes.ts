import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiKeyBodySchema,
  customMcpServerBodySchema,
  errorSchema,
  idempotentCreateHeadersSchema,
  pageQuerySchema,
  registrationSchema,
  serviceActionListSchema,
  serviceListSchema,
  serviceParamsSchema,
  serviceSchema,
  type Registration,
  type Service,
  validationErrorSchema,
} from '@cadre/contract';
import { z } from 'zod';
import { withEtags } from '../../http/etags.ts';
import { createOnce } from '../../http/idempotency.ts';
import { objectErrors, operations } from '../../http/openapi.ts';
import { nextPageLink } from '../../http/paging.ts';
import { browserCookies } from './browser-cookie.ts';
import { serviceCallbackRoutes, type ServicesRouteOptions } from './callback-routes.ts';
import { logoRoutes } from './logo-routes.ts';
import type { BrowserBinding } from './oauth-flow.ts';
import type { ServicesService } from './service.ts';

const op = operations('services');

/** A provider that is not enabled, or one that failed to answer. */
const providerErrors = { 502: errorSchema, 503: errorSchema };

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
    summary:
      'Connects a service with the caller’s API key (kept only in the vault) once its provider accepted it: a refused key answers 422 `key_refused` on `api_key`, a provider that cannot be asked 502; nothing is saved either way',
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
export const servicesRoutes: FastifyPluginAsyncZod<ServicesRouteOptions> = async (
  app,
  { config, db, services, tools },
) => {
  const cookies = browserCookies(config);
  await app.register(logoRoutes);
  await withEtags(app, (lists) =>
    lists.get(
      '/api/v1/services/',
      op(
        'listServices',
        'Every service the caller can use, with the caller’s connection status, all or a page',
        {
          querystring: pageQuerySchema,
          response: { 200: serviceListSchema, 401: errorSchema, 422: validationErrorSchema },
        },
      ),
      async (request, reply) => {
        const all = await services.listServicesForUser(request.user.id);
        const { limit, cursor } = request.query;
        if (limit === undefined && cursor === undefined) return all;
        // The list's order (connected first, then by name) is not one a column holds, and the list
        // is the catalog's size, not a growing history: the cursor is the count of services already
        // shown. A service connected in another tab between two pages shifts the rest by one; the
        // web app refetches every page after its own connects and disconnects.
        const start = Number(cursor ?? 0);
        const page = all.slice(start, limit === undefined ? undefined : start + limit);
        if (limit !== undefined && page.length === limit)
          reply.header('link', nextPageLink(request.url, limit, start + limit));
        return page;
      },
    ),
  );

  app.get(
    '/api/v1/services/active',
    op('listActiveServices', 'The services the caller has connected', {
      response: { 200: serviceListSchema, 401: errorSchema },
    }),
    async (request) => services.listActiveServices(request.user.id),
  );

  app.get(
    '/api/v1/services/:service_id/actions',
    op('listServiceActions', 'The actions (tools) of a service', {
      params: serviceParamsSchema,
      response: { 200: serviceActionListSchema, ...objectErrors, ...providerErrors },
    }),
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
          response: { 200: registrationSchema, ...objectErrors, ...providerErrors },
        },
      },
      async (request, reply) =>
        register(
          services,
          request.params.service_id,
          request.user.id,
          request.body,
          cookies.bind(reply, request.user.id),
        ),
    );
  }

  app.delete(
    '/api/v1/services/:service_id/disconnect_composio_service',
    op(
      'disconnectService',
      'Disconnects the caller from a service and revokes the connection at its provider',
      {
        params: serviceParamsSchema,
        response: { 204: z.null().describe('Disconnected'), ...objectErrors, ...providerErrors },
      },
    ),
    async (request, reply) => {
      await services.disconnect(request.params.service_id, request.user.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/services/custom_mcp',
    {
      config: { permission: 'register_services' },
      ...op(
        'addCustomMcpServer',
        'Adds the caller’s own remote MCP server (Streamable HTTP) as a service only they see',
        {
          description:
            'By URL only: `command`, `args`, `env`, `stdio` and `transport` answer 422. The URL goes through the egress guard; an optional bearer token or header is kept in the vault.',
          headers: idempotentCreateHeadersSchema,
          body: customMcpServerBodySchema,
          response: { 201: serviceSchema, ...objectErrors },
        },
      ),
    },
    async (request, reply) => {
      return createOnce<Service>(
        db,
        request,
        reply,
        { userId: request.user.id, status: 201, secretFields: ['bearer_token', 'header_value'] },
        (record) => services.addCustomMcpServer(request.user.id, request.body, record),
      );
    },
  );

  app.delete(
    '/api/v1/services/:service_id',
    op(
      'removeCustomService',
      'Removes one of the caller’s own services (a custom MCP server) with its tools',
      {
        params: serviceParamsSchema,
        response: { 204: z.null().describe('Removed'), ...objectErrors },
      },
    ),
    async (request, reply) => {
      await services.removeCustomService(request.params.service_id, request.user.id);
      return reply.code(204).send(null);
    },
  );

  await app.register(serviceCallbackRoutes, { config, db, services, tools });
};
