import { CHAT_CSRF_HEADER, CHAT_CSRF_VALUE, CHAT_SESSION_COOKIE, DEMO_SESSION_COOKIE } from '@cadre/contract';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Config } from '../src/config.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, seedAction, uiChunks } from './support/chat-fixtures.ts';
import { multipartBody } from './support/knowledge-files.ts';
import {
  authorize,
  authorizeUrl,
  type Browser,
  pkcePair,
  signUpAndSignIn,
  tokenRequest,
  uidFrom,
} from './support/oidc-flow.ts';
import { appRoutes } from './support/routes.ts';
import { seedService } from './support/seed.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';

/**
 * B1–B3 (docs/security.md): Bob's credentials on Alice's objects, on every route of the app and
 * every verb; Bob's lists; mass assignment. The app runs the built-in identity provider, so its
 * routes under /idp are part of the list (an app with an external issuer serves a subset of these
 * routes). The route list is read from the running app, and a route without a row in ROWS fails,
 * so a new route cannot slip in untested.
 */

/** What Bob's request on a route looks like, and what it must answer. */
interface Row {
  /**
   * Bob's credential: his API token, his /chainlit or /demos session cookie, his browser at the
   * identity provider (his provider session and a sign-in of his own under way), a throwaway
   * user's token, or none.
   */
  as: 'bob' | 'bob-chat' | 'bob-demo' | 'bob-browser' | 'eve' | 'anonymous';
  /** The URL, with Alice's ids where the route takes one. */
  url: string;
  /** Each body is sent in turn; without any, one request with no body. */
  bodies?: unknown[];
  headers?: Record<string, string>;
  /**
   * The status it must answer; `file` for the chat frame's pages and files, which answer according
   * to whether apps/chat has been built (tests run before and after a build).
   */
  status: number | 'file';
  /** The exact JSON answer, where it is fixed. */
  json?: unknown;
  /** More of the answer that must hold (headers, a redirect's target). */
  check?: (res: LightMyRequestResponse) => void;
  /**
   * Why the route names no object another user owns (it acts on the caller, is public, or serves a
   * file). Such a request may change Bob's own rows, so only Alice's rows are compared for it.
   */
  noOwnedId?: string;
  /**
   * Why Bob's own rows change although the route names Alice's object; only Alice's rows are
   * compared for it.
   */
  ownRowsChange?: string;
}

/** Alice's objects (and Bob's own sessions) that the rows point at. */
interface Objects {
  agent: number;
  apiKey: number;
  tool: number;
  service: number;
  thread: string;
  approval: string;
  demoThread: string;
  demoApproval: string;
  /** Alice's answers (awaiting approval), in her chat and her demo; the chat one is rated. */
  answer: string;
  demoAnswer: string;
  /** A knowledge file of Alice's agent, and a multipart upload Bob sends to it. */
  file: string;
  upload: { payload: Buffer; headers: Record<string, string> };
  newChatSession(): Promise<string>;
  newDemoSession(): Promise<string>;
  /** At the identity provider: Alice's sign-in under way in her browser (its id), her ID token and subject. */
  interaction: string;
  idToken: string;
  subject: string;
  /** A fresh authorization code issued to Alice (its PKCE verifier stays in her browser). */
  newCode(): Promise<string>;
  /** Bob's own subject, which answers /idp/me for his token. */
  bobSubject: string;
}

const API = '/backend/api/v1';
const agentGone = { detail: 'Agent not found', code: 'not_found' };
const BOUNDARY = '----cadre-two-user';
const demoLoginForm = (demo: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="username"\r\n\r\nanonymous-user\r\n` +
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="password"\r\n\r\n${demo}\r\n--${BOUNDARY}--\r\n`;
const multipartHeaders = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, origin: ORIGIN };
const PASSWORD = 'a long enough password';
const form = { 'content-type': 'application/x-www-form-urlencoded' };
/** A preflight from another site: the provider names no origin in its answer (H1). */
const foreignPreflight = {
  origin: 'https://evil.example',
  'access-control-request-method': 'POST',
  'access-control-request-headers': 'content-type',
};
/** The provider saves the session of the browser on every sign-in and sign-out request. */
const BOB_SESSION_SAVED = "the provider saves Bob's own session";
const noCorsGrant = (res: LightMyRequestResponse) => {
  expect(res.headers['access-control-allow-origin']).toBeUndefined();
  expect(res.headers['access-control-allow-credentials']).toBeUndefined();
};
/** Bob never comes away with an authorization code, his or Alice's. */
const noCode = (res: LightMyRequestResponse) =>
  expect(String(res.headers.location ?? '')).not.toMatch(/[?&#]code=/);

/**
 * The admin console's routes: Bob is a builder (Alice's account came first and is the admin), so
 * each is refused before anything is read; role-matrix.int.test.ts covers them for every role.
 */
const adminRefusal = {
  detail: 'The admin console needs the admin role; this account is a builder',
  code: 'forbidden',
};
const ADMIN_ROWS: Record<string, () => Row> = Object.fromEntries(
  (
    [
      ['GET', '/admin/people', undefined],
      ['GET', '/admin/people/1', undefined],
      ['PATCH', '/admin/people/1', { role: 'member' }],
      ['DELETE', '/admin/people/1', { confirmation: 'alice@example.com', agents_to: null }],
      ['GET', '/admin/groups', undefined],
      ['POST', '/admin/groups', { name: 'g' }],
      ['PATCH', '/admin/groups/1', { name: 'g' }],
      ['DELETE', '/admin/groups/1', undefined],
      ['GET', '/admin/groups/1/members', undefined],
      ['PUT', '/admin/groups/1/members/1', undefined],
      ['DELETE', '/admin/groups/1/members/1', undefined],
      ['GET', '/admin/settings', undefined],
      ['PATCH', '/admin/settings', { default_role: 'member' }],
      ['GET', '/admin/access-codes', undefined],
      ['POST', '/admin/access-codes', { label: 'x' }],
      ['DELETE', '/admin/access-codes/1', undefined],
    ] as const
  ).map(([method, url, body]) => [
    `${method} /backend/api/v1${url.replace('/people/1', '/people/:user_id').replace('/groups/1', '/groups/:group_id').replace('/members/1', '/members/:user_id').replace('/access-codes/1', '/access-codes/:code_id')}`,
    () => ({
      as: 'bob',
      url: `${API}${url}`,
      ...(body && { bodies: [body] }),
      status: 403,
      json: adminRefusal,
      noOwnedId: 'an admin route, refused to a builder before anything is read',
    }),
  ]),
);

/** One row per route and method (HEAD is checked with its GET). */
const ROWS: Record<string, (alice: Objects, app: { config: Config }) => Row | Promise<Row>> = {
  // ---- /backend: Bob's access token
  'GET /backend/api/v1/public/health/healthcheck': () => ({
    as: 'bob',
    url: `${API}/public/health/healthcheck`,
    status: 200,
    noOwnedId: 'public health check',
  }),
  'GET /backend/api/v1/public/health/live': () => ({
    as: 'bob',
    url: `${API}/public/health/live`,
    status: 200,
    noOwnedId: 'public liveness probe',
  }),
  'GET /backend/api/v1/public/health/ready': () => ({
    as: 'bob',
    url: `${API}/public/health/ready`,
    status: 200,
    noOwnedId: 'public readiness probe',
  }),
  'POST /backend/api/v1/public/beta-user-signin': () => ({
    as: 'bob',
    url: `${API}/public/beta-user-signin`,
    bodies: [{ password: 'not-the-code' }],
    status: 401,
    noOwnedId: 'public access-code gate; the code is shared, not owned',
  }),
  'POST /backend/api/v1/users/check-user': () => ({
    as: 'bob',
    url: `${API}/users/check-user`,
    status: 200,
    noOwnedId: 'acts on the caller named by the token',
  }),
  'GET /backend/api/v1/users/me': () => ({
    as: 'bob',
    url: `${API}/users/me`,
    status: 200,
    noOwnedId: "the caller's own profile",
  }),
  ...ADMIN_ROWS,
  'GET /backend/api/v1/users/me/export': () => ({
    as: 'bob',
    url: `${API}/users/me/export`,
    status: 200,
    noOwnedId: "the caller's own data (B1 below checks that none of Alice's is in it)",
  }),
  'DELETE /backend/api/v1/users/me': () => ({
    as: 'eve',
    url: `${API}/users/me`,
    status: 204,
    noOwnedId: 'deletes the caller (a throwaway user here, so Bob stays for the other rows)',
  }),
  'GET /backend/api/v1/agents/': () => ({
    as: 'bob',
    url: `${API}/agents/`,
    status: 200,
    noOwnedId: "lists the caller's agents (B1 below checks Bob's list)",
  }),
  'GET /backend/api/v1/agent-templates/': () => ({
    as: 'bob',
    url: `${API}/agent-templates/`,
    status: 200,
    noOwnedId: 'the same template list for everyone',
  }),
  'POST /backend/api/v1/agent-templates/:template_id/agents': () => ({
    as: 'bob',
    // A template names no one's objects; a made-up one makes nothing (agent-templates.int.test.ts
    // makes agents from real ones, with the caller's own services).
    url: `${API}/agent-templates/alices-agent/agents`,
    bodies: [{}],
    status: 404,
    noOwnedId: "makes the caller's own agent from a template and connects the caller's own services",
  }),
  'POST /backend/api/v1/agents/': (alice) => ({
    as: 'bob',
    url: `${API}/agents/`,
    // B2: Alice's ids inside Bob's body: her own service's tool, her agent as a copy source.
    bodies: [
      { name: 'b', description: 'b', tool_ids: [alice.tool] },
      { name: 'b', description: 'b', duplicated_from: alice.agent },
    ],
    status: 422,
  }),
  'GET /backend/api/v1/agents/:agent_id/agent': (alice) => ({
    as: 'bob',
    url: `${API}/agents/${alice.agent}/agent`,
    status: 404,
    json: agentGone,
  }),
  'PATCH /backend/api/v1/agents/:agent_id': (alice) => ({
    as: 'bob',
    url: `${API}/agents/${alice.agent}`,
    bodies: [{ name: 'pwned', description: 'x', guidelines: null, tool_ids: [] }, {}],
    status: 404,
    json: agentGone,
  }),
  'DELETE /backend/api/v1/agents/:agent_id': (alice) => ({
    as: 'bob',
    url: `${API}/agents/${alice.agent}`,
    status: 404,
    json: agentGone,
  }),
  'GET /backend/api/v1/agents/:agent_id/versions': (alice) => ({
    as: 'bob',
    url: `${API}/agents/${alice.agent}/versions`,
    status: 404,
    json: agentGone,
  }),
  'POST /backend/api/v1/agents/:agent_id/versions/:number/restore': (alice) => ({
    as: 'bob',
    url: `${API}/agents/${alice.agent}/versions/1/restore`,
    status: 404,
    json: agentGone,
  }),
  'GET /backend/api/v1/agents/:agent_id/tool-permissions': (alice) => ({
    as: 'bob',
    url: `${API}/agents/${alice.agent}/tool-permissions`,
    status: 404,
    json: agentGone,
  }),
  'PUT /backend/api/v1/agents/:agent_id/tool-permissions/:action_id': (alice) => ({
    as: 'bob',
    url: `${API}/agents/${alice.agent}/tool-permissions/${alice.tool}`,
    bodies: [{ mode: 'allow' }, { mode: 'ask' }],
    status: 404,
    json: agentGone,
  }),
  'POST /backend/api/v1/agents/:agent_id/files': (alice) => ({
    as: 'bob',
    url: `${API}/agents/${alice.agent}/files`,
    headers: alice.upload.headers,
    bodies: [alice.upload.payload],
    status: 404,
    json: agentGone,
  }),
  'GET /backend/api/v1/agents/:agent_id/files': (alice) => ({
    as: 'bob',
    url: `${API}/agents/${alice.agent}/files`,
    status: 404,
    json: agentGone,
  }),
  'GET /backend/api/v1/agents/:agent_id/files/:file_id/content': (alice) => ({
    as: 'bob',
    url: `${API}/agents/${alice.agent}/files/${alice.file}/content`,
    status: 404,
    json: { detail: 'File not found', code: 'not_found' },
  }),
  'DELETE /backend/api/v1/agents/:agent_id/files/:file_id': (alice) => ({
    as: 'bob',
    url: `${API}/agents/${alice.agent}/files/${alice.file}`,
    status: 404,
    json: agentGone,
  }),
  'GET /backend/api/v1/agents/:agent_id/export': (alice) => ({
    as: 'bob',
    url: `${API}/agents/${alice.agent}/export`,
    status: 404,
    json: agentGone,
  }),
  'POST /backend/api/v1/agents/import': (alice) => ({
    as: 'bob',
    url: `${API}/agents/import`,
    // A document names tools by stable keys only; Alice's ids in it are never read (the
    // round trip in agent-versions.int.test.ts imports one). A newer format writes nothing.
    bodies: [
      {
        format: 'cadre.agent',
        format_version: 99,
        agent: { id: alice.agent, name: 'b', description: 'b', tool_ids: [alice.tool] },
      },
    ],
    status: 422,
  }),
  'POST /backend/api/v1/agents/:agent_id/triggers/:trigger_id': (alice) => ({
    as: 'bob',
    url: `${API}/agents/${alice.agent}/triggers/t1`,
    bodies: [{ run: 'now' }],
    status: 404,
    json: agentGone,
  }),
  'GET /backend/api/v1/agents/:agent_id/triggers/events': (alice) => ({
    as: 'bob',
    url: `${API}/agents/${alice.agent}/triggers/events`,
    status: 404,
    json: agentGone,
  }),
  'GET /backend/api/v1/agents/:agent_id/trigger-secret': (alice) => ({
    as: 'bob',
    url: `${API}/agents/${alice.agent}/trigger-secret`,
    status: 404,
    json: agentGone,
  }),
  'POST /backend/api/v1/agents/:agent_id/trigger-secret': (alice) => ({
    as: 'bob',
    url: `${API}/agents/${alice.agent}/trigger-secret`,
    status: 404,
    json: agentGone,
  }),
  'DELETE /backend/api/v1/agents/:agent_id/trigger-secret': (alice) => ({
    as: 'bob',
    url: `${API}/agents/${alice.agent}/trigger-secret`,
    status: 404,
    json: agentGone,
  }),
  'POST /backend/api/v1/auth/chainlit-copilot-login': (alice) => ({
    as: 'bob',
    url: `${API}/auth/chainlit-copilot-login`,
    bodies: [{ agent_id: alice.agent }],
    status: 404,
    // The chat sign-in's words: the agent is gone or not the caller's.
    json: { detail: 'This agent does not exist or is not yours', code: 'not_found' },
  }),
  'POST /backend/api/v1/auth/backchannel-logout': () => ({
    as: 'bob',
    url: `${API}/auth/backchannel-logout`,
    bodies: [{ logout_token: 'not-a-logout-token' }],
    status: 400,
    json: { error: 'invalid_request', error_description: 'logout_token is not valid', code: 'bad_request' },
    noOwnedId: "public: the identity provider's signed logout token names the session it ends",
  }),
  'GET /backend/api/v1/api-keys': () => ({
    as: 'bob',
    url: `${API}/api-keys`,
    status: 200,
    json: [],
    noOwnedId: "lists the caller's keys (Alice's is absent from Bob's empty list)",
  }),
  'GET /backend/api/v1/models': () => ({
    as: 'bob',
    url: `${API}/models`,
    status: 200,
    json: [
      {
        id: 'offline',
        label: 'Offline model',
        provider: 'offline',
        context_window: null,
        input_price_per_million: 0,
        output_price_per_million: 0,
        default: true,
      },
    ],
    noOwnedId: "lists the operator's models, the same for every caller",
  }),
  'POST /backend/api/v1/api-keys': (alice) => ({
    as: 'bob',
    url: `${API}/api-keys`,
    bodies: [{ name: 'b', scopes: ['chat'], agent_ids: [alice.agent] }],
    status: 422,
    json: {
      detail: [{ loc: ['body', 'agent_ids', 0], msg: 'is not one of your agents', type: 'value_error' }],
      code: 'validation_failed',
    },
  }),
  'PATCH /backend/api/v1/api-keys/:api_key_id': (alice) => ({
    as: 'bob',
    url: `${API}/api-keys/${alice.apiKey}`,
    bodies: [{ allowed_origins: ['https://bob.example'] }],
    status: 404,
    json: { detail: 'API key not found', code: 'not_found' },
  }),
  'DELETE /backend/api/v1/api-keys/:api_key_id': (alice) => ({
    as: 'bob',
    url: `${API}/api-keys/${alice.apiKey}`,
    status: 404,
    json: { detail: 'API key not found', code: 'not_found' },
  }),
  'GET /backend/api/v1/services/': () => ({
    as: 'bob',
    url: `${API}/services/`,
    status: 200,
    noOwnedId: "lists the catalog and the caller's own servers (Alice's is checked absent)",
  }),
  'GET /backend/api/v1/services/active': () => ({
    as: 'bob',
    url: `${API}/services/active`,
    status: 200,
    noOwnedId: "lists the caller's connections",
  }),
  'POST /backend/api/v1/services/custom_mcp': () => ({
    as: 'bob',
    url: `${API}/services/custom_mcp`,
    bodies: [{}],
    status: 422,
    noOwnedId: 'adds a server owned by the caller; the body names no existing row',
  }),
  'DELETE /backend/api/v1/services/:service_id': (alice) => ({
    as: 'bob',
    url: `${API}/services/${alice.service}`,
    status: 404,
  }),
  'GET /backend/api/v1/services/:service_id/actions': (alice) => ({
    as: 'bob',
    url: `${API}/services/${alice.service}/actions`,
    status: 404,
  }),
  'POST /backend/api/v1/services/:service_id/register_auth_service': (alice) => ({
    as: 'bob',
    url: `${API}/services/${alice.service}/register_auth_service`,
    status: 404,
  }),
  'POST /backend/api/v1/services/:service_id/register_api_service': (alice) => ({
    as: 'bob',
    url: `${API}/services/${alice.service}/register_api_service`,
    bodies: [{ api_key: 'bobs-key' }],
    status: 404,
  }),
  'POST /backend/api/v1/services/:service_id/register_noauth_service': (alice) => ({
    as: 'bob',
    url: `${API}/services/${alice.service}/register_noauth_service`,
    status: 404,
  }),
  'DELETE /backend/api/v1/services/:service_id/disconnect_composio_service': (alice) => ({
    as: 'bob',
    url: `${API}/services/${alice.service}/disconnect_composio_service`,
    status: 404,
  }),
  'GET /backend/api/v1/public/oauth2/callback/': () => ({
    as: 'bob',
    url: `${API}/public/oauth2/callback/?state=${'x'.repeat(43)}&code=abc`,
    status: 302,
    noOwnedId: 'public provider redirect; its single-use state, not the caller, names the user',
  }),
  'GET /backend/api/v1/public/:service_id/composio_auth_redirect/': (alice) => ({
    as: 'bob',
    url: `${API}/public/${alice.service}/composio_auth_redirect/`,
    status: 302,
    noOwnedId: 'public provider redirect; it finishes only a flow its state started',
  }),
  'POST /backend/api/v1/public/composio-webhook': () => ({
    as: 'bob',
    url: `${API}/public/composio-webhook`,
    bodies: [{ type: 'x' }],
    status: 503,
    noOwnedId: "Composio's signed calls; they name provider accounts, never a Cadre user",
  }),
  'GET /backend/api/v1/public/logos/:file': () => ({
    as: 'bob',
    url: `${API}/public/logos/0000000000000000.svg`,
    status: 404,
    noOwnedId: 'the same built-in images for everyone',
  }),
  'GET /backend/api/v1/usage': () => ({
    as: 'bob',
    url: `${API}/usage?group_by=day,agent,model`,
    status: 200,
    noOwnedId: "the caller's own usage (B1 below checks that none of Alice's is in it)",
  }),
  'GET /backend/api/v1/usage/csv': () => ({
    as: 'bob',
    url: `${API}/usage/csv?group_by=agent`,
    status: 200,
    noOwnedId: "the caller's own usage as CSV (B1 below checks that none of Alice's is in it)",
  }),
  'GET /backend/openapi.json': () => ({
    as: 'bob',
    url: '/backend/openapi.json',
    status: 200,
    noOwnedId: 'public API description',
  }),

  // ---- /backend/openai/v1 and /backend/mcp: Bob's access token (accepted where an API key is)
  'GET /backend/openai/v1/models': () => ({
    as: 'bob',
    url: '/backend/openai/v1/models',
    status: 200,
    noOwnedId: "lists the caller's agents (B1 below checks Bob's list)",
  }),
  'OPTIONS /backend/openai/v1/models': () => ({
    as: 'bob',
    url: '/backend/openai/v1/models',
    headers: { origin: 'https://alice-app.example', 'access-control-request-method': 'POST' },
    status: 204,
    noOwnedId: 'a CORS preflight names no object; it only says whether some API key lists the origin',
  }),
  'OPTIONS /backend/openai/v1/chat/completions': () => ({
    as: 'bob',
    url: '/backend/openai/v1/chat/completions',
    headers: { origin: 'https://alice-app.example', 'access-control-request-method': 'POST' },
    status: 204,
    noOwnedId: 'a CORS preflight names no object; it only says whether some API key lists the origin',
  }),
  'OPTIONS /backend/openai/v1/responses': () => ({
    as: 'bob',
    url: '/backend/openai/v1/responses',
    headers: { origin: 'https://alice-app.example', 'access-control-request-method': 'POST' },
    status: 204,
    noOwnedId: 'a CORS preflight names no object; it only says whether some API key lists the origin',
  }),
  'OPTIONS /backend/mcp/:agent_id': (alice) => ({
    as: 'bob',
    url: `/backend/mcp/${alice.agent}`,
    headers: { origin: 'https://alice-app.example', 'access-control-request-method': 'POST' },
    status: 204,
    noOwnedId: 'a CORS preflight names no object; it only says whether some API key lists the origin',
  }),
  'POST /backend/openai/v1/responses': (alice) => ({
    as: 'bob',
    url: '/backend/openai/v1/responses',
    bodies: [false, true].map((stream) => ({ model: String(alice.agent), input: 'Post memo', stream })),
    status: 404,
    json: {
      error: {
        message: `The model '${alice.agent}' does not exist or you do not have access to it.`,
        type: 'invalid_request_error',
        param: 'model',
        code: 'not_found',
      },
    },
  }),
  'POST /backend/openai/v1/chat/completions': (alice) => ({
    as: 'bob',
    url: '/backend/openai/v1/chat/completions',
    bodies: [false, true].map((stream) => ({
      model: String(alice.agent),
      messages: [{ role: 'user', content: 'Post memo' }],
      stream,
    })),
    status: 404,
    json: {
      error: {
        message: `The model '${alice.agent}' does not exist or you do not have access to it.`,
        type: 'invalid_request_error',
        param: 'model',
        code: 'not_found',
      },
    },
  }),
  'POST /backend/mcp/:agent_id': (alice) => ({
    as: 'bob',
    url: `/backend/mcp/${alice.agent}`,
    headers: { accept: 'application/json, text/event-stream' },
    bodies: [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'ask_alice_agent', arguments: { message: 'Post memo' } },
      },
    ],
    status: 404,
    json: agentGone,
  }),
  'GET /backend/mcp/:agent_id': (alice) => ({
    as: 'bob',
    url: `/backend/mcp/${alice.agent}`,
    status: 404,
    json: agentGone,
  }),
  'DELETE /backend/mcp/:agent_id': (alice) => ({
    as: 'bob',
    url: `/backend/mcp/${alice.agent}`,
    status: 404,
    json: agentGone,
  }),

  // ---- /chainlit: Bob's chat session cookie
  'GET /chainlit': () => ({
    as: 'bob-chat',
    url: '/chainlit',
    status: 'file',
    noOwnedId: 'the chat frame page',
  }),
  'GET /chainlit/': () => ({
    as: 'bob-chat',
    url: '/chainlit/',
    status: 'file',
    noOwnedId: 'the chat frame page',
  }),
  'GET /chainlit/assets/:file': () => ({
    as: 'bob-chat',
    url: '/chainlit/assets/none.js',
    status: 'file',
    noOwnedId: "the chat frame's static files",
  }),
  'GET /chainlit/copilot/index.js': () => ({
    as: 'bob-chat',
    url: '/chainlit/copilot/index.js',
    status: 'file',
    noOwnedId: 'the copilot widget bundle',
  }),
  'GET /chainlit/*': () => ({
    as: 'bob-chat',
    url: '/chainlit/no/such/page',
    status: 'file',
    noOwnedId: "the chat frame's static files",
  }),
  'POST /chainlit/auth/header': (alice) => ({
    as: 'bob',
    url: '/chainlit/auth/header',
    // Alice's agent in X-Agent-Id: refused as an agent that is not Bob's, and no session is stored.
    headers: { 'x-agent-id': String(alice.agent) },
    status: 404,
    json: { detail: 'This agent does not exist or is not yours', code: 'not_found' },
  }),
  'POST /chainlit/logout': async (alice) => ({
    as: 'bob-chat',
    url: '/chainlit/logout',
    headers: { cookie: `${CHAT_SESSION_COOKIE}=${await alice.newChatSession()}` },
    status: 200,
    noOwnedId: "ends the session of the caller's own cookie (a fresh one here)",
  }),
  'GET /chainlit/session': () => ({
    as: 'bob-chat',
    url: '/chainlit/session',
    status: 200,
    noOwnedId: "the caller's own session",
  }),
  'OPTIONS /chainlit/*': () => ({
    as: 'bob',
    url: '/chainlit/threads',
    headers: { origin: 'https://alice-shop.example', 'access-control-request-method': 'GET' },
    status: 204,
    noOwnedId: 'a CORS preflight names no object; it only says whether some agent allows the origin',
  }),
  'GET /chainlit/threads': () => ({
    as: 'bob-chat',
    url: '/chainlit/threads',
    status: 200,
    noOwnedId: "lists the caller's threads",
  }),
  'POST /chainlit/threads': () => ({
    as: 'bob-chat',
    url: '/chainlit/threads',
    bodies: [{ name: 'mine' }],
    status: 201,
    noOwnedId: "creates a thread in the caller's own session",
  }),
  'PATCH /chainlit/threads/:threadId': (alice) => ({
    as: 'bob-chat',
    url: `/chainlit/threads/${alice.thread}`,
    bodies: [{ name: 'pwned' }],
    status: 404,
  }),
  'DELETE /chainlit/threads/:threadId': (alice) => ({
    as: 'bob-chat',
    url: `/chainlit/threads/${alice.thread}`,
    status: 404,
  }),
  'GET /chainlit/threads/:threadId/messages': (alice) => ({
    as: 'bob-chat',
    url: `/chainlit/threads/${alice.thread}/messages`,
    status: 404,
  }),
  'POST /chainlit/threads/:threadId/stop': (alice) => ({
    as: 'bob-chat',
    url: `/chainlit/threads/${alice.thread}/stop`,
    bodies: [{}],
    status: 404,
  }),
  'PUT /chainlit/messages/:messageId/feedback': (alice) => ({
    as: 'bob-chat',
    url: `/chainlit/messages/${alice.answer}/feedback`,
    bodies: [{ rating: 'down', comment: 'pwned' }],
    status: 404,
  }),
  'DELETE /chainlit/messages/:messageId/feedback': (alice) => ({
    as: 'bob-chat',
    url: `/chainlit/messages/${alice.answer}/feedback`,
    status: 404,
  }),
  'POST /chainlit/chat': (alice) => ({
    as: 'bob-chat',
    url: '/chainlit/chat',
    bodies: [{ threadId: alice.thread, text: 'Post a memo' }],
    status: 404,
  }),
  'GET /chainlit/chat/:threadId/stream': (alice) => ({
    as: 'bob-chat',
    url: `/chainlit/chat/${alice.thread}/stream`,
    status: 404,
  }),
  'POST /chainlit/approvals/:approvalId/approve': (alice) => ({
    as: 'bob-chat',
    url: `/chainlit/approvals/${alice.approval}/approve`,
    bodies: [{}],
    status: 404,
  }),
  'POST /chainlit/approvals/:approvalId/deny': (alice) => ({
    as: 'bob-chat',
    url: `/chainlit/approvals/${alice.approval}/deny`,
    bodies: [{}],
    status: 404,
  }),
  'POST /chainlit/fn-results/:callId': () => ({
    as: 'bob-chat',
    url: `/chainlit/fn-results/${crypto.randomUUID()}`,
    bodies: [{ result: 'forged' }],
    status: 404,
    noOwnedId:
      "call ids live only while their own copilot run waits; chat-host-functions.int.test.ts sends another user's",
  }),

  // ---- /demos: Bob's demo session cookie (Alice has a demo session of her own)
  'GET /demos': () => ({ as: 'bob-demo', url: '/demos', status: 'file', noOwnedId: 'the demo chat page' }),
  'GET /demos/': () => ({
    as: 'bob-demo',
    url: '/demos/',
    status: 'file',
    noOwnedId: 'the demo chat page',
  }),
  'GET /demos/assets/:file': () => ({
    as: 'bob-demo',
    url: '/demos/assets/none.js',
    status: 'file',
    noOwnedId: "the chat frame's static files",
  }),
  'POST /demos/login': () => ({
    as: 'bob-demo',
    url: '/demos/login',
    headers: multipartHeaders,
    bodies: [demoLoginForm('vcdemo')],
    status: 200,
    noOwnedId: 'starts a new visitor of its own',
  }),
  'POST /demos/logout': async (alice) => ({
    as: 'bob-demo',
    url: '/demos/logout',
    headers: { cookie: `${DEMO_SESSION_COOKIE}=${await alice.newDemoSession()}` },
    status: 200,
    noOwnedId: "ends the visitor of the caller's own cookie (a fresh one here)",
  }),
  'GET /demos/session': () => ({
    as: 'bob-demo',
    url: '/demos/session',
    status: 200,
    noOwnedId: "the caller's own demo session",
  }),
  'GET /demos/threads': () => ({
    as: 'bob-demo',
    url: '/demos/threads',
    status: 200,
    noOwnedId: "lists the caller's demo threads",
  }),
  'POST /demos/threads': () => ({
    as: 'bob-demo',
    url: '/demos/threads',
    bodies: [{ name: 'mine' }],
    status: 201,
    noOwnedId: "creates a thread in the caller's own demo",
  }),
  'PATCH /demos/threads/:threadId': (alice) => ({
    as: 'bob-demo',
    url: `/demos/threads/${alice.demoThread}`,
    bodies: [{ name: 'pwned' }],
    status: 404,
  }),
  'DELETE /demos/threads/:threadId': (alice) => ({
    as: 'bob-demo',
    url: `/demos/threads/${alice.demoThread}`,
    status: 404,
  }),
  'GET /demos/threads/:threadId/messages': (alice) => ({
    as: 'bob-demo',
    url: `/demos/threads/${alice.demoThread}/messages`,
    status: 404,
  }),
  'POST /demos/threads/:threadId/stop': (alice) => ({
    as: 'bob-demo',
    url: `/demos/threads/${alice.demoThread}/stop`,
    bodies: [{}],
    status: 404,
  }),
  'PUT /demos/messages/:messageId/feedback': (alice) => ({
    as: 'bob-demo',
    url: `/demos/messages/${alice.demoAnswer}/feedback`,
    bodies: [{ rating: 'down' }],
    status: 404,
  }),
  'DELETE /demos/messages/:messageId/feedback': (alice) => ({
    as: 'bob-demo',
    url: `/demos/messages/${alice.demoAnswer}/feedback`,
    status: 404,
  }),
  'POST /demos/chat': (alice) => ({
    as: 'bob-demo',
    url: '/demos/chat',
    bodies: [{ threadId: alice.demoThread, text: 'Search startups in fintech' }],
    status: 404,
  }),
  'GET /demos/chat/:threadId/stream': (alice) => ({
    as: 'bob-demo',
    url: `/demos/chat/${alice.demoThread}/stream`,
    status: 404,
  }),
  'POST /demos/approvals/:approvalId/approve': (alice) => ({
    as: 'bob-demo',
    url: `/demos/approvals/${alice.demoApproval}/approve`,
    bodies: [{}],
    status: 404,
  }),
  'POST /demos/approvals/:approvalId/deny': (alice) => ({
    as: 'bob-demo',
    url: `/demos/approvals/${alice.demoApproval}/deny`,
    bodies: [{}],
    status: 404,
  }),

  // ---- /idp: the built-in identity provider. Bob's browser holds his own provider session and a
  // sign-in of his own under way; Alice's sign-in (her interaction), her session, grant and codes
  // stay hers. Bob's requests change only his own rows, so only Alice's are compared.
  'GET /idp/.well-known/openid-configuration': () => ({
    as: 'anonymous',
    url: '/idp/.well-known/openid-configuration',
    status: 200,
    noOwnedId: "the provider's public metadata",
  }),
  'OPTIONS /idp/.well-known/openid-configuration': () => ({
    as: 'anonymous',
    url: '/idp/.well-known/openid-configuration',
    headers: foreignPreflight,
    status: 204,
    check: noCorsGrant,
    noOwnedId: "the provider's public metadata",
  }),
  'GET /idp/jwks': () => ({
    as: 'anonymous',
    url: '/idp/jwks',
    status: 200,
    noOwnedId: "the provider's public keys",
  }),
  'OPTIONS /idp/jwks': () => ({
    as: 'anonymous',
    url: '/idp/jwks',
    headers: foreignPreflight,
    status: 204,
    check: noCorsGrant,
    noOwnedId: "the provider's public keys",
  }),
  // Bob's browser asks, without a prompt, for a sign-in as Alice (her ID token as the hint).
  'GET /idp/auth': (alice, { config }) => ({
    as: 'bob-browser',
    url: authorizeUrl(config, {
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
      prompt: 'none',
      id_token_hint: alice.idToken,
    }),
    status: 303,
    check: (res) => {
      noCode(res);
      expect(String(res.headers.location)).toMatch(/[?&]error=login_required/);
    },
    ownRowsChange: BOB_SESSION_SAVED,
  }),
  // Alice's authorization resumed by its id in a browser without her resume cookie. (Bob's own
  // cookie would resume his own sign-in: the provider goes by the cookie, not by the id.)
  'GET /idp/auth/:uid': (alice) => ({
    as: 'anonymous',
    url: `/idp/auth/${alice.interaction}`,
    status: 400,
    check: noCode,
  }),
  // Alice's authorization code with Bob's own PKCE verifier.
  'POST /idp/token': async (alice, { config }) => ({
    as: 'anonymous',
    url: '/idp/token',
    headers: form,
    bodies: [
      new URLSearchParams({
        client_id: config.auth.clientId,
        grant_type: 'authorization_code',
        code: await alice.newCode(),
        code_verifier: pkcePair().verifier,
        redirect_uri: config.auth.redirectUri,
      }).toString(),
    ],
    status: 400,
    check: (res) => expect(res.json()).toMatchObject({ error: 'invalid_grant' }),
  }),
  'OPTIONS /idp/token': () => ({
    as: 'anonymous',
    url: '/idp/token',
    headers: foreignPreflight,
    status: 204,
    check: noCorsGrant,
    noOwnedId: 'a preflight names no object',
  }),
  // Revocation takes the token itself: Alice's ids (her sign-in, her subject) revoke nothing.
  'POST /idp/token/revocation': (alice, { config }) => ({
    as: 'anonymous',
    url: '/idp/token/revocation',
    headers: form,
    bodies: [alice.interaction, alice.subject].map((token) =>
      new URLSearchParams({ client_id: config.auth.clientId, token }).toString(),
    ),
    status: 200,
  }),
  'OPTIONS /idp/token/revocation': () => ({
    as: 'anonymous',
    url: '/idp/token/revocation',
    headers: foreignPreflight,
    status: 204,
    check: noCorsGrant,
    noOwnedId: 'a preflight names no object',
  }),
  // Sign-out with Alice's ID token as the hint, in Bob's browser: at most Bob's session could end.
  'GET /idp/session/end': (alice, { config }) => ({
    as: 'bob-browser',
    url: `/idp/session/end?${new URLSearchParams({
      id_token_hint: alice.idToken,
      post_logout_redirect_uri: config.auth.logoutRedirectUri,
      client_id: config.auth.clientId,
    })}`,
    status: 200,
    ownRowsChange: BOB_SESSION_SAVED,
  }),
  'POST /idp/session/end/confirm': () => ({
    as: 'bob-browser',
    url: '/idp/session/end/confirm',
    headers: form,
    bodies: [new URLSearchParams({ xsrf: 'x'.repeat(43), logout: 'yes' }).toString()],
    status: 400,
    ownRowsChange: BOB_SESSION_SAVED,
  }),
  'GET /idp/session/end/success': () => ({
    as: 'anonymous',
    url: '/idp/session/end/success',
    status: 200,
    noOwnedId: 'the signed-out page, the same for everyone',
  }),
  // Alice's sign-in under way, by its id, in Bob's browser: no page, and no step of it goes on.
  'GET /idp/interaction/:uid': (alice) => ({
    as: 'bob-browser',
    url: `/idp/interaction/${alice.interaction}`,
    status: 400,
  }),
  'GET /idp/interaction/:uid/signup': (alice) => ({
    as: 'bob-browser',
    url: `/idp/interaction/${alice.interaction}/signup`,
    status: 400,
  }),
  'POST /idp/interaction/:uid/signup': (alice) => ({
    as: 'bob-browser',
    url: `/idp/interaction/${alice.interaction}/signup`,
    headers: form,
    bodies: [new URLSearchParams({ name: 'Bob', email: 'bob2@example.com', password: PASSWORD }).toString()],
    status: 400,
    check: noCode,
  }),
  // Bob signs in with his own account on Alice's sign-in: it would hand her app session to him.
  'POST /idp/interaction/:uid/login': (alice) => ({
    as: 'bob-browser',
    url: `/idp/interaction/${alice.interaction}/login`,
    headers: form,
    bodies: [new URLSearchParams({ email: 'bob@example.com', password: PASSWORD }).toString()],
    status: 400,
    check: noCode,
  }),
  'POST /idp/interaction/:uid/abort': (alice) => ({
    as: 'bob-browser',
    url: `/idp/interaction/${alice.interaction}/abort`,
    status: 400,
  }),
  'GET /idp/assets/logout.js': () => ({
    as: 'anonymous',
    url: '/idp/assets/logout.js',
    status: 200,
    noOwnedId: 'a script, the same for everyone',
  }),
  'GET /idp/assets/theme.js': () => ({
    as: 'anonymous',
    url: '/idp/assets/theme.js',
    status: 200,
    noOwnedId: 'a script, the same for everyone',
  }),
  // The `picture` claim's image: initials on a colour, at the random subject, for <img> tags that
  // carry no token. Public by design; it shows no name or email.
  'GET /idp/avatars/:file': (alice) => ({
    as: 'anonymous',
    url: `/idp/avatars/${alice.subject}.svg`,
    status: 200,
    noOwnedId: "initials only, addressed by the account's random subject",
  }),
  // Userinfo answers the token's own account: Bob's token gets Bob's claims.
  'GET /idp/me': (alice) => ({
    as: 'bob',
    url: '/idp/me',
    status: 200,
    json: {
      sub: alice.bobSubject,
      name: 'Bob',
      email: 'bob@example.com',
      email_verified: false,
      picture: expect.any(String),
    },
    noOwnedId: "acts on the token's own account",
  }),
  'POST /idp/me': (alice) => ({
    as: 'bob',
    url: '/idp/me',
    status: 200,
    json: {
      sub: alice.bobSubject,
      name: 'Bob',
      email: 'bob@example.com',
      email_verified: false,
      picture: expect.any(String),
    },
    noOwnedId: "acts on the token's own account",
  }),

  // ---- the web app
  'GET /runtime-config.json': () => ({
    as: 'bob',
    url: '/runtime-config.json',
    status: 200,
    noOwnedId: "the web app's public settings",
  }),
};

/** Tables of rows a user owns, with how a row names its owner. */
const OWNED_TABLES = {
  users: 'id',
  agents: 'user_id',
  agent_tools: 'agent',
  agent_versions: 'user_id',
  knowledge_files: 'user_id',
  knowledge_passages: 'user_id',
  tool_permissions: 'user_id',
  trigger_events: 'user_id',
  services: 'owner_user_id',
  actions: 'service',
  connections: 'user_id',
  oauth_states: 'user_id',
  threads: 'user_id',
  messages: 'thread',
  message_feedback: 'user_id',
  approvals: 'user_id',
  chat_sessions: 'user_id',
  notes: 'user_id',
  calendar_events: 'user_id',
  demo_sessions: 'user_id',
  demo_orders: 'user_id',
  demo_refunds: 'user_id',
  demo_tickets: 'user_id',
  demo_activities: 'user_id',
  demo_researched_leads: 'user_id',
  api_keys: 'user_id',
  turn_usage: 'user_id',
  // The identity provider's: an account by its subject; sessions, sign-ins under way, grants,
  // codes and tokens name the account or the grant they belong to.
  idp_accounts: 'subject',
  idp_payloads: 'account',
} as const;

type Snapshot = Record<string, Record<string, unknown>[]>;

describe(`two-user matrix on ${testDatabaseKind()}`, () => {
  let t: TestApp;
  let alice: { authorization: string };
  let bob: { authorization: string };
  let eve: { authorization: string };
  let aliceIds: number[];
  let aliceAgent: { id: number; name: string };
  let objects: Objects;
  const credentials: Partial<Record<Row['as'], Record<string, string>>> = {};

  /** Every owned row, or only those of `owners`, in a stable order. */
  const snapshot = async (owners?: number[]): Promise<Snapshot> => {
    const all: Snapshot = {};
    for (const table of Object.keys(OWNED_TABLES) as (keyof typeof OWNED_TABLES)[]) {
      const rows = (await t.db.kysely.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
      all[table] = rows.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    }
    if (!owners) return all;
    const isOwner = (id: unknown) => owners.includes(id as number);
    const idsOf = (table: string, column: string) =>
      new Set(all[table]!.filter((r) => isOwner(r[column])).map((r) => r.id));
    const subjects = new Set(all.users!.filter((u) => isOwner(u.id)).map((u) => u.subject as string));
    const mentionsOwner = (row: Record<string, unknown>) =>
      [...subjects].some((subject) => String(row.payload).includes(`"${subject}"`));
    const grants = new Set(
      all.idp_payloads!.filter((r) => r.kind === 'Grant' && mentionsOwner(r)).map((r) => r.id),
    );
    const byProvider = {
      subject: (row: Record<string, unknown>) => subjects.has(row.subject as string),
      account: (row: Record<string, unknown>) => mentionsOwner(row) || grants.has(row.grant_id),
    };
    const parents = {
      agent: ['agent_id', idsOf('agents', 'user_id')],
      service: ['service_id', idsOf('services', 'owner_user_id')],
      thread: ['thread_id', idsOf('threads', 'user_id')],
    } as const;
    return Object.fromEntries(
      Object.entries(all).map(([table, rows]) => {
        const by = OWNED_TABLES[table as keyof typeof OWNED_TABLES];
        const owned =
          by in byProvider
            ? byProvider[by as keyof typeof byProvider]
            : by in parents
              ? (row: Record<string, unknown>) => {
                  const [column, ids] = parents[by as keyof typeof parents];
                  return ids.has(row[column]);
                }
              : (row: Record<string, unknown>) => isOwner(row[by]);
        return [table, rows.filter(owned)];
      }),
    );
  };

  const chatHeaders = (cookie: string) => ({ cookie, origin: ORIGIN, [CHAT_CSRF_HEADER]: CHAT_CSRF_VALUE });

  async function chatSession(auth: { authorization: string }, agentId: number) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/chainlit/auth/header',
      headers: { ...auth, 'x-agent-id': String(agentId) },
    });
    expect(res.statusCode).toBe(200);
    return res.cookies.find((c) => c.name === CHAT_SESSION_COOKIE)!.value;
  }

  async function demoSession(demo: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/demos/login',
      headers: multipartHeaders,
      payload: demoLoginForm(demo),
    });
    expect(res.statusCode).toBe(200);
    return res.cookies.find((c) => c.name === DEMO_SESSION_COOKIE)!.value;
  }

  /** A turn that asks for approval: the thread it ran in and the approval's id. */
  async function turnAwaitingApproval(url: string, headers: Record<string, string>, text: string) {
    const res = await t.app.inject({ method: 'POST', url, headers, payload: { text } });
    const request = uiChunks(res.body).find((c) => c.type === 'tool-approval-request');
    expect(request, res.body).toBeDefined();
    return {
      thread: String(res.headers['x-thread-id']),
      approval: (request as { approvalId: string }).approvalId,
    };
  }

  /** Alice at the identity provider: her browser, and a sign-in of hers left under way there. */
  let aliceAtProvider: { browser: Browser; refreshToken: string; interaction: string };

  beforeAll(async () => {
    // The frame's file routes exist only for files present at start; a small build of our own keeps
    // the route list the same whether or not `npm run build` has run.
    const chatDistDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-two-user-frame-'));
    fs.mkdirSync(path.join(chatDistDir, 'assets'));
    fs.mkdirSync(path.join(chatDistDir, 'copilot'));
    fs.writeFileSync(path.join(chatDistDir, 'index.html'), '<!doctype html><title>frame</title>');
    fs.writeFileSync(path.join(chatDistDir, 'assets', 'index-abc123.js'), '');
    fs.writeFileSync(path.join(chatDistDir, 'copilot', 'index.js'), '');
    t = await createTestApp({}, { chat: { chatDistDir }, demos: { chatDistDir } });
    // The snapshots compare every stored row before and after Bob's requests; the trigger worker
    // would otherwise pick up Alice's stored trigger event in between.
    await t.app.triggers.stop();
    const signUp = (name: string) =>
      signUpAndSignIn(t.app, t.config, {
        name,
        email: `${name.toLowerCase()}@example.com`,
        password: PASSWORD,
      });
    const aliceSignedIn = await signUp('Alice');
    const bobSignedIn = await signUp('Bob');
    const aliceId = aliceSignedIn.id;
    alice = aliceSignedIn.auth;
    bob = bobSignedIn.auth;
    eve = (await signUp('Eve')).auth;
    // Alice starts signing in again (in her own browser) and leaves it there; Bob starts one of
    // his own, so his browser holds a sign-in cookie too.
    const startSignIn = async (browser: Browser) => {
      const started = await browser.request(
        'GET',
        authorizeUrl(t.config, {
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
          prompt: 'login',
        }),
      );
      const uid = uidFrom(String(started.headers.location));
      expect(uid).not.toBe('');
      return uid;
    };
    aliceAtProvider = {
      browser: aliceSignedIn.browser,
      refreshToken: aliceSignedIn.refreshToken,
      interaction: await startSignIn(aliceSignedIn.browser),
    };
    const bobsSignIn = await startSignIn(bobSignedIn.browser);
    // Her sign-in under way is one of her rows, so the rows below see any change to it.
    expect(JSON.stringify((await snapshot([aliceId])).idp_payloads)).toContain(aliceAtProvider.interaction);
    const catalogTool = (await seedService(t.db, { name: 'Gmail', actions: 1 })).actionIds[0]!;
    const own = await seedService(t.db, { name: 'AliceMcp', ownerUserId: aliceId, actions: 1 });
    const memoTool = await seedAction(t.db, {
      name: 'post_memo',
      description: 'Posts a memo to the team board',
      effect: 'write',
      schema: { type: 'object', properties: {} },
    });
    aliceAgent = (
      await t.app.inject({
        method: 'POST',
        url: `${API}/agents/`,
        headers: alice,
        payload: {
          name: 'Alice agent',
          description: 'Private',
          guidelines: 'secret plan',
          tool_ids: [catalogTool, own.actionIds[0]!, memoTool],
        },
      })
    ).json();
    await t.app.inject({
      method: 'POST',
      url: `${API}/agents/${aliceAgent.id}/triggers/t1`,
      headers: alice,
      payload: { x: 1 },
    });
    // Her agent takes signed trigger calls: Bob can neither read, rotate nor delete its secret.
    await t.app.inject({
      method: 'POST',
      url: `${API}/agents/${aliceAgent.id}/trigger-secret`,
      headers: alice,
    });
    const chat = await turnAwaitingApproval(
      '/chainlit/chat',
      chatHeaders(`${CHAT_SESSION_COOKIE}=${await chatSession(alice, aliceAgent.id)}`),
      'Post memo',
    );
    // Alice lets the memo tool run without asking (after her pending card above was made).
    await t.app.inject({
      method: 'PUT',
      url: `${API}/agents/${aliceAgent.id}/tool-permissions/${memoTool}`,
      headers: alice,
      payload: { mode: 'allow' },
    });
    const aliceFile = await multipartBody([
      { field: 'file', name: 'alice-plan.md', bytes: 'secret plan: the launch date' },
    ]);
    const file = (
      await t.app.inject({
        method: 'POST',
        url: `${API}/agents/${aliceAgent.id}/files`,
        headers: { ...alice, ...aliceFile.headers },
        payload: aliceFile.payload,
      })
    ).json().id as string;
    const aliceDemo = chatHeaders(`${DEMO_SESSION_COOKIE}=${await demoSession('customerservicedemo')}`);
    const demo = await turnAwaitingApproval('/demos/chat', aliceDemo, 'Issue a refund for order ORD-1042');
    const aliceDemoUser = (
      await t.app.inject({ method: 'GET', url: '/demos/session', headers: aliceDemo })
    ).json().user.id as number;
    aliceIds = [aliceId, aliceDemoUser];

    const bobAgent = (
      await t.app.inject({
        method: 'POST',
        url: `${API}/agents/`,
        headers: bob,
        payload: { name: 'Bob agent', description: 'Mine' },
      })
    ).json().id as number;
    const answerIn = async (threadId: string) =>
      (
        await t.db.kysely
          .selectFrom('messages')
          .select('id')
          .where('thread_id', '=', threadId)
          .where('role', '=', 'assistant')
          .executeTakeFirstOrThrow()
      ).id;
    await t.db.kysely
      .insertInto('message_feedback')
      .values({
        message_id: await answerIn(chat.thread),
        user_id: aliceId,
        rating: 'up',
        comment: 'useful',
        updated_at: new Date().toISOString(),
      })
      .execute();
    credentials.bob = bob;
    credentials.eve = eve;
    const providerHost = { host: new URL(t.config.publicUrl).host };
    credentials.anonymous = providerHost;
    // What his browser sends on his own sign-in page (his provider session and that sign-in's
    // cookie), sent to Alice's.
    credentials['bob-browser'] = {
      ...providerHost,
      cookie: bobSignedIn.browser.cookieHeader(`/idp/interaction/${bobsSignIn}`),
    };
    credentials['bob-chat'] = chatHeaders(`${CHAT_SESSION_COOKIE}=${await chatSession(bob, bobAgent)}`);
    credentials['bob-demo'] = chatHeaders(`${DEMO_SESSION_COOKIE}=${await demoSession('vcdemo')}`);
    objects = {
      agent: aliceAgent.id,
      apiKey: (
        await t.app.inject({
          method: 'POST',
          url: `${API}/api-keys`,
          headers: alice,
          payload: { name: 'Alice key', scopes: ['agents:read'], agent_ids: [aliceAgent.id] },
        })
      ).json().id as number,
      tool: own.actionIds[0]!,
      service: own.serviceId,
      thread: chat.thread,
      approval: chat.approval,
      demoThread: demo.thread,
      demoApproval: demo.approval,
      answer: await answerIn(chat.thread),
      demoAnswer: await answerIn(demo.thread),
      file,
      upload: await multipartBody([{ field: 'file', name: 'bob.md', bytes: 'Bob was here' }]),
      newChatSession: () => chatSession(bob, bobAgent),
      newDemoSession: () => demoSession('vcdemo'),
      interaction: aliceAtProvider.interaction,
      idToken: aliceSignedIn.idToken,
      subject: aliceSignedIn.subject,
      newCode: async () =>
        (await authorize(t.app, t.config, { email: '', password: '' }, { browser: aliceSignedIn.browser }))
          .code,
      bobSubject: bobSignedIn.subject,
    };
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has a row for every route the app serves, and none for a route it does not', () => {
    // @fastify/static gives each built frame asset (hashed names) a route of its own; one row covers them.
    const routes = new Set(
      appRoutes(t.app)
        .filter((r) => !r.startsWith('HEAD '))
        .map((r) => r.replace(/^GET \/(chainlit|demos)\/assets\/[^/]+$/, 'GET /$1/assets/:file')),
    );
    for (const { method, url } of t.app.routeInventory) {
      expect(routes.has(`${method === 'HEAD' ? 'GET' : method} ${url}`), `${method} ${url}`).toBe(true);
    }
    expect([...routes].sort()).toEqual(Object.keys(ROWS).sort());
  });

  it.each(Object.keys(ROWS))("B1: Bob's %s on Alice's objects", async (route) => {
    const row = await ROWS[route]!(objects, t);
    const method = route.split(' ')[0] as 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'OPTIONS';
    const methods = method === 'GET' ? (['GET', 'HEAD'] as const) : [method];
    const onlyAlices = row.noOwnedId ?? row.ownRowsChange;
    const before = await snapshot(onlyAlices ? aliceIds : undefined);
    for (const verb of methods) {
      for (const body of row.bodies ?? [undefined]) {
        const request: InjectOptions = {
          method: verb,
          url: row.url,
          headers: { ...credentials[row.as], ...row.headers },
          payload: body as InjectOptions['payload'],
        };
        const res = await t.app.inject(request);
        const label = `${verb} ${row.url} ${JSON.stringify(body) ?? ''}`;
        if (row.status === 'file') expect([200, 301, 302, 404, 503], label).toContain(res.statusCode);
        else expect(res.statusCode, label).toBe(row.status);
        if (row.json !== undefined && verb !== 'HEAD') expect(res.json(), label).toEqual(row.json);
        if (verb !== 'HEAD') row.check?.(res);
        for (const secret of ['Alice agent', 'secret plan', 'AliceMcp', 'alice@example.com']) {
          expect(res.body, label).not.toContain(secret);
        }
      }
    }
    expect(await snapshot(onlyAlices ? aliceIds : undefined)).toEqual(before);
  });

  it("B1: after Bob's requests, Alice's sign-in under way, her provider session and her refresh token still work", async () => {
    const { browser, interaction, refreshToken } = aliceAtProvider;
    const finished = await browser.request('POST', `/idp/interaction/${interaction}/login`, {
      email: 'alice@example.com',
      password: PASSWORD,
    });
    expect(finished.statusCode).toBe(303);
    const back = await browser.follow(finished);
    expect(String(back.headers.location)).toMatch(/[?&]code=/);
    const refreshed = await tokenRequest(t.app, t.config, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
    });
    expect(refreshed.status).toBe(200);
  });

  it("B1: Bob's lists and export never show Alice's rows", async () => {
    const list = await t.app.inject({ method: 'GET', url: `${API}/agents/`, headers: bob });
    expect(list.json().map((a: { name: string }) => a.name)).toEqual(['Bob agent']);
    const models = await t.app.inject({
      method: 'GET',
      url: '/backend/openai/v1/models',
      headers: bob,
    });
    expect(models.json().data.map((m: { name: string }) => m.name)).toEqual(['Bob agent']);
    const exported = await t.app.inject({ method: 'GET', url: `${API}/users/me/export`, headers: bob });
    expect(exported.body).not.toContain('Alice agent');
    expect(exported.body).not.toContain('secret plan');
    expect(exported.json().trigger_events).toEqual([]);
    // Alice's runs cost tokens; Bob's usage and its CSV hold none of them.
    const aliceRuns = await t.db.kysely.selectFrom('turn_usage').select('agent_id').execute();
    expect(aliceRuns.map((r) => r.agent_id)).toContain(aliceAgent.id);
    const usage = await t.app.inject({ method: 'GET', url: `${API}/usage?group_by=agent`, headers: bob });
    expect(usage.json().rows.map((r: { agent_id: number }) => r.agent_id)).not.toContain(aliceAgent.id);
    const csv = await t.app.inject({ method: 'GET', url: `${API}/usage/csv?group_by=agent`, headers: bob });
    expect(csv.body.split('\n').filter((line) => line.startsWith(`,${aliceAgent.id},`))).toEqual([]);
    const services = await t.app.inject({ method: 'GET', url: `${API}/services/`, headers: bob });
    expect(services.body).toContain('Gmail');
    expect(services.body).not.toContain('AliceMcp');
    const threads = await t.app.inject({
      method: 'GET',
      url: '/chainlit/threads',
      headers: credentials['bob-chat'],
    });
    expect(threads.json().data.map((th: { id: string }) => th.id)).not.toContain(objects.thread);
    // Searching by the text of Alice's chat and demo finds none of her threads.
    for (const [mount, as, text, thread] of [
      ['chainlit', 'bob-chat', 'memo', objects.thread],
      ['demos', 'bob-demo', 'refund', objects.demoThread],
    ] as const) {
      const searched = await t.app.inject({
        method: 'GET',
        url: `/${mount}/threads?q=${text}`,
        headers: credentials[as],
      });
      expect(searched.statusCode, mount).toBe(200);
      expect(searched.json().data.map((th: { id: string }) => th.id)).not.toContain(thread);
    }
  });

  it('B3: bodies carrying id, owner, user_id or created_at answer 422 and leave the row unchanged', async () => {
    const before = await snapshot();
    for (const extra of [
      { id: 999 },
      { owner: 'bob' },
      { user_id: 2 },
      { created_at: '2000-01-01T00:00:00Z' },
      { tools: [] },
    ]) {
      const patch = await t.app.inject({
        method: 'PATCH',
        url: `${API}/agents/${aliceAgent.id}`,
        headers: alice,
        payload: { name: 'renamed', ...extra },
      });
      expect(patch.statusCode, JSON.stringify(extra)).toBe(422);
      expect(patch.json().detail[0].loc).toEqual(['body', Object.keys(extra)[0]]);
      const post = await t.app.inject({
        method: 'POST',
        url: `${API}/agents/`,
        headers: alice,
        payload: { name: 'n', description: 'd', ...extra },
      });
      expect(post.statusCode, JSON.stringify(extra)).toBe(422);
    }
    expect(await snapshot()).toEqual(before);
  });
});
