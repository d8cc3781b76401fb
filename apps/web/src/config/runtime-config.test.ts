import { describe, expect, it } from 'vitest';
import { checkRuntimeConfig, loadRuntimeConfig } from './runtime-config';

const valid = {
  analyticsTagId: '',
  heatmapTracking: { siteId: 0, version: 6 },
  isProduction: true,
  isDevelopment: false,
  disableAuth0: false,
  chainlitUrl: 'https://app.example/chainlit',
  chainlitDemosUrl: 'https://app.example/demos',
  apiUrl: 'https://app.example/backend',
  auth0Domain: 'https://app.example/idp',
  auth0ClientId: 'cadre-web',
  auth0RedirectUri: 'https://app.example',
  auth0Audience: 'https://app.example/backend',
  auth0LogoutRedirect: 'https://app.example',
  feedbackUrl: '',
};

describe('runtime configuration', () => {
  it('accepts a configuration with every field of spec section 3', () => {
    expect(checkRuntimeConfig(valid)).toEqual({ ok: true, config: valid });
  });

  it('names each missing, mistyped or unknown field', () => {
    const { apiUrl: _apiUrl, ...withoutApiUrl } = valid;
    const result = checkRuntimeConfig({
      ...withoutApiUrl,
      isProduction: 'yes',
      heatmapTracking: { siteId: '1', version: 6 },
      extra: 1,
    });
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems.some((p) => p.startsWith('apiUrl:'))).toBe(true);
    expect(problems.some((p) => p.startsWith('isProduction:'))).toBe(true);
    expect(problems.some((p) => p.startsWith('heatmapTracking.siteId:'))).toBe(true);
    expect(problems).toContain('unknown field: extra');
  });

  it('refuses empty required strings, bad URLs, unknown nested fields and a non-object', () => {
    const result = checkRuntimeConfig({
      ...valid,
      auth0ClientId: '',
      apiUrl: 'not a url',
      feedbackUrl: 'also not',
      heatmapTracking: { siteId: 1, version: 6, a: 1, b: 2 },
    });
    expect(result).toEqual({
      ok: false,
      problems: [
        'unknown fields: heatmapTracking.a, heatmapTracking.b',
        'apiUrl: not a URL',
        'auth0ClientId: must not be empty',
        'feedbackUrl: not a URL (nor empty)',
      ],
    });
    expect(checkRuntimeConfig([])).toEqual({
      ok: false,
      problems: ['(configuration): expected object, received array'],
    });
  });

  it('keeps an empty feedback link and trims spaces around URLs', () => {
    const result = checkRuntimeConfig({ ...valid, feedbackUrl: '', apiUrl: ' https://app.example/backend ' });
    expect(result).toEqual({ ok: true, config: { ...valid, feedbackUrl: '' } });
  });

  it('reports a server that does not answer or answers something else', async () => {
    const down = await loadRuntimeConfig(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(down).toEqual({ ok: false, problems: ['could not reach the server: Failed to fetch'] });

    const html = await loadRuntimeConfig(async () => new Response('<html>', { status: 200 }));
    expect(html).toEqual({ ok: false, problems: ['the configuration is not valid JSON'] });

    const missing = await loadRuntimeConfig(
      async () => new Response('', { status: 404, statusText: 'Not Found' }),
    );
    expect(missing).toEqual({ ok: false, problems: ['the server answered 404 Not Found'] });
  });

  it('fetches the configuration from /runtime-config.json', async () => {
    const urls: string[] = [];
    const result = await loadRuntimeConfig(async (input) => {
      urls.push(String(input));
      return new Response(JSON.stringify(valid));
    });
    expect(urls).toEqual(['/runtime-config.json']);
    expect(result.ok).toBe(true);
  });
});
