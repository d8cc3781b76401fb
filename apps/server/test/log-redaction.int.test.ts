import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';

/** ASVS 25: full URLs with secrets never reach the logs, wherever the request lands. */
describe(`ASVS 25: secrets in URLs stay out of the logs, on ${testDatabaseKind()}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ASVS 25: redacts codes, states, ID tokens, keys and passwords from every logged request URL', async () => {
    const secret = (name: string) => `${name}-canary-${crypto.randomUUID()}`;
    const values = {
      hint: secret('idtoken'),
      code: secret('code'),
      state: secret('state'),
      token: secret('token'),
      key: secret('key'),
      apiKey: secret('apikey'),
      password: secret('password'),
    };
    const urls = [
      `/idp/session/end?id_token_hint=${values.hint}&post_logout_redirect_uri=http%3A%2F%2Fcadre.test`,
      `/backend/api/v1/public/oauth2/callback/?code=${values.code}&state=${values.state}`,
      `/backend/api/v1/public/1/composio_auth_redirect/?token=${values.token}&status=success`,
      `/?code=${values.code}&state=${values.state}`,
      `/backend/api/v1/agents/?key=${values.key}&api_key=${values.apiKey}`,
      `/no/such/page?password=${values.password}&access_token=${values.token}`,
    ];
    for (const url of urls) await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    const logs = t.logs.join('\n');
    for (const value of Object.values(values)) expect(logs).not.toContain(value);
    // The request lines are still there, as paths: the one-line request log drops every query
    // string (and any other line that logs a request has its URL's secrets redacted).
    expect(logs).toContain('"path":"/backend/api/v1/public/oauth2/callback/"');
    expect(logs).toContain('"path":"/backend/api/v1/agents/"');
    expect(logs).not.toContain('post_logout_redirect_uri');
  });
});
