import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { errorCodeOf } from '@cadre/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISABLED_DETAIL } from '../src/http/auth.ts';
import type { Permission } from '../src/security/policy.ts';
import { seedAgent } from './support/chat-fixtures.ts';
import { signUpAndSignIn } from './support/oidc-flow.ts';
import { appRoutes } from './support/routes.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';

/**
 * The role matrix (DESIGN.md section 4; docs/security.md, "Roles"): every route under /backend
 * called by an admin, a builder, a member, an outsider (a builder who owns none of the objects the
 * URLs name) and a disabled account. The route list is read from the running app, and a /backend
 * route without a row fails, so a new route cannot slip past the policy. Routes outside /backend
 * (the chat frame, the demos, the identity provider, the web app) do not take API tokens: their own
 * session decides, and the two-user matrix has a row for each of them.
 */

/** Who may call a /backend route: nobody needs a token, every active role, or the permission's roles. */
type Access = { public: string } | 'any' | Permission;

const ROWS: Record<string, Access> = {
  'GET /backend/api/v1/public/health/healthcheck': { public: 'health check' },
  'GET /backend/api/v1/public/health/live': { public: 'liveness probe' },
  'GET /backend/api/v1/public/health/ready': { public: 'readiness probe' },
  'POST /backend/api/v1/public/beta-user-signin': { public: 'the access-code gate' },
  'POST /backend/api/v1/auth/backchannel-logout': { public: "the provider's signed logout token" },
  'GET /backend/api/v1/public/oauth2/callback/': { public: 'OAuth redirect; the state names the user' },
  'GET /backend/api/v1/public/:service_id/composio_auth_redirect/': { public: 'OAuth redirect' },
  'POST /backend/api/v1/public/composio-webhook': { public: 'signed provider webhook' },
  'GET /backend/api/v1/public/logos/:file': { public: "built-in services' logos" },
  'GET /backend/openapi.json': { public: 'the API description' },
  'OPTIONS /backend/openai/v1/models': { public: 'CORS preflight: a browser sends no credentials' },
  'OPTIONS /backend/openai/v1/chat/completions': { public: 'CORS preflight' },
  'OPTIONS /backend/openai/v1/responses': { public: 'CORS preflight' },
  'OPTIONS /backend/mcp/:agent_id': { public: 'CORS preflight' },
  'POST /backend/api/v1/users/check-user': 'any',
  'GET /backend/api/v1/users/me': 'any',
  'GET /backend/api/v1/users/me/export': 'any',
  'DELETE /backend/api/v1/users/me': 'any',
  'GET /backend/api/v1/agents/': 'any',
  'GET /backend/api/v1/agent-templates/': 'any',
  'POST /backend/api/v1/agent-templates/:template_id/agents': 'build_agents',
  'POST /backend/api/v1/agents/': 'build_agents',
  'POST /backend/api/v1/agents/import': 'build_agents',
  'GET /backend/api/v1/agents/:agent_id/agent': 'any',
  'PATCH /backend/api/v1/agents/:agent_id': 'build_agents',
  'DELETE /backend/api/v1/agents/:agent_id': 'build_agents',
  'GET /backend/api/v1/agents/:agent_id/versions': 'any',
  'POST /backend/api/v1/agents/:agent_id/versions/:number/restore': 'build_agents',
  'GET /backend/api/v1/agents/:agent_id/tool-permissions': 'any',
  'PUT /backend/api/v1/agents/:agent_id/tool-permissions/:action_id': 'build_agents',
  'POST /backend/api/v1/agents/:agent_id/files': 'build_agents',
  'GET /backend/api/v1/agents/:agent_id/files': 'any',
  'GET /backend/api/v1/agents/:agent_id/files/:file_id/content': 'any',
  'DELETE /backend/api/v1/agents/:agent_id/files/:file_id': 'build_agents',
  'GET /backend/api/v1/agents/:agent_id/export': 'any',
  'POST /backend/api/v1/agents/:agent_id/triggers/:trigger_id': 'any',
  'GET /backend/api/v1/agents/:agent_id/triggers/events': 'any',
  'GET /backend/api/v1/agents/:agent_id/trigger-secret': 'any',
  'POST /backend/api/v1/agents/:agent_id/trigger-secret': 'manage_triggers',
  'DELETE /backend/api/v1/agents/:agent_id/trigger-secret': 'manage_triggers',
  'POST /backend/api/v1/auth/chainlit-copilot-login': 'any',
  'GET /backend/api/v1/api-keys': 'any',
  'POST /backend/api/v1/api-keys': 'create_api_keys',
  'PATCH /backend/api/v1/api-keys/:api_key_id': 'create_api_keys',
  'DELETE /backend/api/v1/api-keys/:api_key_id': 'any',
  'GET /backend/api/v1/models': 'any',
  'GET /backend/api/v1/services/': 'any',
  'GET /backend/api/v1/services/active': 'any',
  'POST /backend/api/v1/services/custom_mcp': 'register_services',
  'DELETE /backend/api/v1/services/:service_id': 'any',
  'GET /backend/api/v1/services/:service_id/actions': 'any',
  'POST /backend/api/v1/services/:service_id/register_auth_service': 'any',
  'POST /backend/api/v1/services/:service_id/register_api_service': 'any',
  'POST /backend/api/v1/services/:service_id/register_noauth_service': 'any',
  'DELETE /backend/api/v1/services/:service_id/disconnect_composio_service': 'any',
  'GET /backend/api/v1/usage': 'any',
  'GET /backend/api/v1/usage/csv': 'any',
  'GET /backend/openai/v1/models': 'any',
  'POST /backend/openai/v1/chat/completions': 'any',
  'POST /backend/openai/v1/responses': 'any',
  'POST /backend/mcp/:agent_id': 'any',
  'GET /backend/mcp/:agent_id': 'any',
  'DELETE /backend/mcp/:agent_id': 'any',
  'GET /backend/api/v1/admin/people': 'administer',
  'GET /backend/api/v1/admin/people/:user_id': 'administer',
  'PATCH /backend/api/v1/admin/people/:user_id': 'administer',
  'DELETE /backend/api/v1/admin/people/:user_id': 'administer',
  'GET /backend/api/v1/admin/groups': 'administer',
  'POST /backend/api/v1/admin/groups': 'administer',
  'PATCH /backend/api/v1/admin/groups/:group_id': 'administer',
  'DELETE /backend/api/v1/admin/groups/:group_id': 'administer',
  'GET /backend/api/v1/admin/groups/:group_id/members': 'administer',
  'PUT /backend/api/v1/admin/groups/:group_id/members/:user_id': 'administer',
  'DELETE /backend/api/v1/admin/groups/:group_id/members/:user_id': 'administer',
  'GET /backend/api/v1/admin/settings': 'administer',
  'GET /backend/api/v1/admin/access-codes': 'administer',
  'POST /backend/api/v1/admin/access-codes': 'administer',
  'DELETE /backend/api/v1/admin/access-codes/:code_id': 'administer',
  'PATCH /backend/api/v1/admin/settings': 'administer',
};

/** Which roles each permission lets through (what the matrix expects, written out independently). */
const ALLOWED: Record<Permission, readonly string[]> = {
  build_agents: ['admin', 'builder'],
  register_services: ['admin', 'builder'],
  manage_triggers: ['admin', 'builder'],
  create_api_keys: ['admin', 'builder'],
  administer: ['admin'],
};

/**
 * The order the routes are called in: deletions after the rest (so the builder's agent is there
 * while the other routes name it), and the account's own deletion last of all.
 */
const callOrder = (route: string) =>
  route === 'DELETE /backend/api/v1/users/me' ? 2 : route.startsWith('DELETE ') ? 1 : 0;

const PRINCIPALS = ['admin', 'builder', 'member', 'outsider', 'disabled'] as const;
type Principal = (typeof PRINCIPALS)[number];
const ROLE_OF: Record<Principal, string> = {
  admin: 'admin',
  builder: 'builder',
  member: 'member',
  outsider: 'builder',
  disabled: 'builder',
};

describe(`role matrix on ${testDatabaseKind()}`, () => {
  let t: TestApp;
  const auth = {} as Record<Principal, { authorization: string }>;
  let agentId = 0;

  beforeAll(async () => {
    const chatDistDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-role-matrix-frame-'));
    fs.writeFileSync(path.join(chatDistDir, 'index.html'), '<!doctype html><title>frame</title>');
    t = await createTestApp({}, { chat: { chatDistDir }, demos: { chatDistDir } });
    await t.app.triggers.stop();
    const ids = {} as Record<Principal, number>;
    for (const who of PRINCIPALS) {
      const signedIn = await signUpAndSignIn(t.app, t.config, {
        name: who,
        email: `${who}@example.com`,
        password: 'a long enough password',
      });
      auth[who] = signedIn.auth;
      ids[who] = signedIn.id;
    }
    const patch = (who: Principal, payload: object) =>
      t.app.inject({
        method: 'PATCH',
        url: `/backend/api/v1/admin/people/${ids[who]}`,
        headers: auth.admin,
        payload,
      });
    expect((await patch('member', { role: 'member' })).statusCode).toBe(200);
    expect((await patch('disabled', { disabled: true })).statusCode).toBe(200);
    agentId = await seedAgent(t.db, ids.builder, 'Builder agent');
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The route's URL with the builder's agent and made-up ids for anything else. */
  const urlOf = (route: string) =>
    route
      .split(' ')[1]!
      .replace(':agent_id', String(agentId))
      .replace(/:[a-z_]+/g, (param) => (param === ':file' ? 'none.svg' : '999999'));

  const expectAllowed = (res: LightMyRequestResponse, label: string) => {
    expect(res.statusCode, label).not.toBe(401);
    if (res.statusCode === 403) expect(res.body, label).not.toMatch(/role;|disabled/);
  };

  it('has a row for every /backend route the app serves, and none for a route it does not', () => {
    const routes = new Set(
      appRoutes(t.app)
        .filter((r) => !r.startsWith('HEAD '))
        .filter((r) => r.split(' ')[1]!.startsWith('/backend/')),
    );
    expect([...routes].sort()).toEqual(Object.keys(ROWS).sort());
  });

  it.each(Object.keys(ROWS).sort((a, b) => callOrder(a) - callOrder(b)))(
    '%s for admin, builder, member, outsider and a disabled account',
    async (route) => {
      const access = ROWS[route]!;
      const method = route.split(' ')[0] as 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'OPTIONS';
      for (const who of PRINCIPALS) {
        // The admin is the last admin of a workspace with others: deleting itself is refused (409).
        const res = await t.app.inject({
          method,
          url: urlOf(route),
          headers: auth[who],
          ...(method !== 'GET' && method !== 'OPTIONS' && { payload: {} }),
        });
        const label = `${who} ${route} → ${res.statusCode} ${res.body.slice(0, 200)}`;
        if (typeof access === 'object') {
          // Public: no token is read, so no role or standing changes the answer.
          expect([401, 403].includes(res.statusCode) && /role;|disabled/.test(res.body), label).toBe(false);
          continue;
        }
        if (who === 'disabled') {
          expect(res.statusCode, label).toBe(403);
          // The OpenAI-compatible routes answer in OpenAI's error shape, with the same code.
          expect(errorCodeOf(res.json()), label).toBe('account_disabled');
          expect(res.body, label).toContain(DISABLED_DETAIL);
          continue;
        }
        const role = ROLE_OF[who];
        if (access !== 'any' && !ALLOWED[access].includes(role)) {
          expect(res.statusCode, label).toBe(403);
          expect(res.json().code, label).toBe('forbidden');
          expect(res.json().detail, label).toMatch(
            new RegExp(`needs the .*role; this account is a ${role}$`),
          );
          continue;
        }
        expectAllowed(res, label);
        // The outsider owns nothing: the builder's agent is not found for them.
        if (who === 'outsider' && route.includes(':agent_id') && res.statusCode < 400) {
          throw new Error(`${label}: the outsider reached the builder's agent`);
        }
      }
    },
  );
});
