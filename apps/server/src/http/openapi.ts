import type { SwaggerOptions } from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifySchema, type RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import {
  CHAT_SESSION_COOKIE,
  DEMO_SESSION_COOKIE,
  errorSchema,
  validationErrorSchema,
} from '@cadre/contract';

export const API_PREFIX = '/backend';
export const API_VERSION = '0.1.0';

type Security = Record<string, string[]>[];

/**
 * The mounts the document describes, and how each authenticates unless a route says otherwise. The
 * API's paths are written relative to `/backend` (the runtime configuration's `apiUrl`, which is
 * how the generated client calls them); the chat and demo mounts' paths are absolute, under a
 * path-level server `/`.
 */
const MOUNTS: { prefix: string; relative: boolean; security: Security }[] = [
  { prefix: API_PREFIX, relative: true, security: [{ bearer: [] }] },
  { prefix: '/chainlit', relative: false, security: [{ copilotToken: [] }, { chatSession: [] }] },
  { prefix: '/demos', relative: false, security: [{ demoSession: [] }] },
];

const mountOf = (url: string) => MOUNTS.find((m) => url === m.prefix || url.startsWith(`${m.prefix}/`));

/**
 * The OpenAPI document is generated from the route schemas: the API at `/backend` (with the
 * OpenAI-compatible API and the MCP server), and the `/chainlit` and `/demos` routes the web app,
 * the chat frame and the copilot widget call. The identity provider's pages and the static files
 * are left out. An operation's security follows from the route: none where `config.public` marks it
 * public on the API, else its mount's scheme, unless its schema names its own.
 *
 * Made on the first request for it, not at start: only the routes are recorded as they are added;
 * @fastify/swagger (and the YAML library and schema resolver it loads, some 90 modules) is loaded
 * then, on an instance of its own given the same routes (never served, only read), and the
 * document is kept.
 */
const SWAGGER_OPTIONS: SwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'Cadre API',
      version: API_VERSION,
      description: 'The REST API behind the Cadre web app, its chat service and its public demos.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: API_PREFIX }],
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A sign-in access token (a JWT from the OpenID Connect issuer) or a personal API key (`cadre_…`).',
        },
        copilotToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'A copilot token from `POST /backend/api/v1/auth/chainlit-copilot-login`.',
        },
        chatSession: {
          type: 'apiKey',
          in: 'cookie',
          name: CHAT_SESSION_COOKIE,
          description:
            "The chat session from `POST /chainlit/auth/header` (or the agent's own `cadre_chat_session_{agent id}`); state-changing requests also need `X-Requested-With: cadre-chat` and an Origin of this site.",
        },
        demoSession: {
          type: 'apiKey',
          in: 'cookie',
          name: DEMO_SESSION_COOKIE,
          description: 'The demo session from `POST /demos/login`.',
        },
      },
    },
  },
  transform: (input) => {
    const transformed = jsonSchemaTransform(input);
    const mount = mountOf(input.url);
    const { multipartBody, ...schema } = transformed.schema as FastifySchema & {
      hide?: boolean;
      security?: Security;
      operationId?: string;
      multipartBody?: object;
    };
    if (!mount) return { ...transformed, schema: { ...schema, hide: true } };
    // A multipart route reads its parts itself (Fastify validates no body): the document still
    // describes them, from the JSON Schema the route gives as `multipartBody`.
    if (multipartBody) Object.assign(schema, { body: multipartBody, consumes: ['multipart/form-data'] });
    const isPublic = input.route.config?.public === true;
    const security = schema.security ?? (mount.relative && isPublic ? [] : mount.security);
    return {
      url: mount.relative ? input.url.slice(mount.prefix.length) : input.url,
      schema: { ...schema, security, ...demoOperation(mount.prefix, schema) },
    };
  },
  transformObject: (documentObject) => {
    const document =
      'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject;
    // The chat and demo routes live outside /backend: a path-level server says so.
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      if (item && mountOf(path)?.relative === false) Object.assign(item, { servers: [{ url: '/' }] });
    }
    return document;
  },
};

const documents = new WeakMap<FastifyInstance, { routes: RouteOptions[]; document?: Promise<unknown> }>();

export function registerOpenApi(app: FastifyInstance) {
  const routes: RouteOptions[] = [];
  documents.set(app, { routes });
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
}

export function openApiDocument(app: FastifyInstance): Promise<unknown> {
  const recorded = documents.get(app);
  if (!recorded) throw new Error('registerOpenApi was not called on this app');
  // A failed attempt is not kept: the next request tries again.
  recorded.document ??= documentOf(recorded.routes).catch((err: unknown) => {
    recorded.document = undefined;
    throw err;
  });
  return recorded.document;
}

const notCompiled = (): never => {
  throw new Error('The OpenAPI reader compiles no schema');
};

/** The routes as @fastify/swagger sees them: their method, URL, schema and config (never run). */
async function documentOf(routes: RouteOptions[]) {
  const { default: swagger } = await import('@fastify/swagger');
  // HEAD routes are among those recorded (Fastify adds one per GET): none is added twice.
  // The schemas are read, never compiled (so Fastify's default compilers are not loaded either).
  const reader = Fastify({
    exposeHeadRoutes: false,
    schemaController: { compilersFactory: { buildValidator: notCompiled, buildSerializer: notCompiled } },
  });
  reader.setValidatorCompiler(() => () => true);
  reader.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await reader.register(swagger, SWAGGER_OPTIONS);
  for (const { method, url, schema, config } of routes) {
    reader.route({ method, url, schema, config, handler: async () => undefined });
  }
  await reader.ready();
  try {
    return reader.swagger();
  } finally {
    await reader.close();
  }
}

/** The demos mount the chat's routes again: their operations get ids and a tag of their own. */
function demoOperation(prefix: string, schema: { operationId?: string }) {
  if (prefix !== '/demos' || !schema.operationId) return {};
  return { operationId: schema.operationId.replace(/^chat/, 'demo'), tags: ['demos'] };
}

/** The answers a call on one of the caller's objects may give besides its own: 401, 404 and 422. */
export const objectErrors = { 401: errorSchema, 404: errorSchema, 422: validationErrorSchema };

/**
 * The OpenAPI operation of a module's routes: `op(operationId, summary, schemas)` under the module's
 * tag, so each route states only what is its own.
 */
export function operations(tag: string) {
  return <S extends FastifySchema>(operationId: string, summary: string, schema: S) => ({
    schema: { operationId, tags: [tag], summary, ...schema },
  });
}
