import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { formatBanner, startupReport } from './startup-report.ts';

const SECRETS_KEY = 'a'.repeat(64);

describe('the start-up report and banner', () => {
  it('names the one URL to open, the generated access code and where it is kept, the data folder, database, sign-in and model', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      PUBLIC_URL: 'http://cadre.test:9000',
      DATA_DIR: '/srv/cadre',
    });
    const banner = formatBanner(startupReport(config, 'K7QX-2MPA', '0.0.0.0:9000'));
    const rows = banner.split('\n');
    expect(rows).toContain('  Open         http://cadre.test:9000');
    expect(rows).toContain('  Access code  K7QX-2MPA');
    expect(banner).toMatch(/^ {15}generated once and stored sealed in the database/m);
    expect(rows).toContain(`  Data folder  ${path.resolve('/srv/cadre')}`);
    expect(banner).toContain(`SQLite at ${path.resolve('/srv/cadre/cadre.sqlite')} (one instance only`);
    expect(rows).toContain('  Sign-in      built in, at http://cadre.test:9000/idp');
    expect(rows).toContain('  Model        the built-in offline model (no network, no key)');
    expect(banner).toContain('One line per request follows. LOG_FORMAT=json writes JSON instead.');
    // Only PUBLIC_URL is a URL to open: sign-in fails on any other address.
    expect(banner.match(/https?:\/\/[^\s/]+/g)?.every((url) => url === 'http://cadre.test:9000')).toBe(true);
    expect(banner).not.toContain('0.0.0.0');
  });

  it('says where configured codes come from without printing them, and never prints a database password or a model key', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      BETA_ACCESS_CODES: 'first-secret-code,second-secret-code',
      DATABASE_URL: 'postgres://cadre:db-password@db.internal:5432/cadre?sslmode=require',
      SECRETS_KEY,
      OIDC_ISSUER: 'https://login.example.com',
      LLM_PROVIDER: 'openai-compatible',
      LLM_MODEL: 'llama3.1',
      LLM_BASE_URL: 'http://models.internal:11434/v1',
      LLM_API_KEY: 'sk-model-key',
    });
    const report = startupReport(config, undefined);
    expect(report).toMatchObject({
      accessCode: '2 codes from BETA_ACCESS_CODES',
      accessCodeSource: 'the BETA_ACCESS_CODES setting',
      database: 'PostgreSQL at db.internal:5432/cadre',
      identityProvider: 'external issuer https://login.example.com',
    });
    expect(report.model).toMatch(/openai-compatible llama3\.1 at http:\/\/models\.internal:11434\/v1/);
    expect(report).not.toHaveProperty('listeningOn');
    const banner = formatBanner(report);
    for (const secret of [
      'first-secret-code',
      'second-secret-code',
      'db-password',
      'sk-model-key',
      SECRETS_KEY,
    ])
      expect(banner).not.toContain(secret);
  });

  it('says when sign-in is switched off', () => {
    const config = loadConfig({ NODE_ENV: 'test', DISABLE_AUTH: 'true' });
    expect(startupReport(config, 'CODE').identityProvider).toBe(
      'none: DISABLE_AUTH makes every request the mock user',
    );
  });
});
