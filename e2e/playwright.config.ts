import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './support/chromium.ts';
import { E2E_ADMIN_EMAIL } from './support/sign-in.ts';

/**
 * End-to-end tests run in Debian's Chromium against the built server (`npm run build`), started on
 * a free port with a fresh data folder. The port and folder are chosen once in the main process and
 * passed to workers through the environment. Set E2E_BASE_URL to test a server you started yourself.
 */
const root = path.resolve(import.meta.dirname, '..');
process.env.E2E_PORT ??= String(20_000 + Math.floor(Math.random() * 20_000));
process.env.E2E_STUB_PORT ??= String(Number(process.env.E2E_PORT) + 1);
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-e2e-'));
const port = Number(process.env.E2E_PORT);
const external = process.env.E2E_BASE_URL;
const baseURL = external ?? `http://localhost:${port}`;
// The stub provider's address (support/stub-provider.ts), as the server's Brave Search URL.
const stubURL = `http://127.0.0.2:${process.env.E2E_STUB_PORT}`;

// The beta access code the server under test accepts; tests read it from the environment.
process.env.E2E_ACCESS_CODE ??= 'e2e-access-code';

export default defineConfig({
  testDir: './tests',
  fullyParallel: false,
  // Two files at a time (the accessibility matrix shares its screens between both). One worker
  // kept one of CI's two cores busy (browser and server mostly take turns); every test signs up an
  // account of its own and the server's per-address limits are raised below.
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: true,
  reporter: [['list']],
  outputDir: './test-results',
  globalTeardown: './support/global-teardown.ts',
  use: {
    baseURL,
    // A failed test keeps its trace with the page's DOM at each step, not a filmstrip: recording
    // screenshots all along cost about a fifth of the run's CPU (`--trace retain-on-failure` for it).
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: external
    ? undefined
    : [
        {
          command: 'node e2e/support/stub-provider.ts',
          cwd: root,
          url: `${stubURL}/health`,
          reuseExistingServer: false,
          timeout: 30_000,
          stdout: 'ignore',
          stderr: 'pipe',
        },
        {
          command: 'node apps/server/dist/main.js',
          cwd: root,
          url: `${baseURL}/backend/api/v1/public/health/healthcheck`,
          reuseExistingServer: false,
          timeout: 60_000,
          stdout: 'ignore',
          stderr: 'pipe',
          env: {
            NODE_ENV: 'production',
            HOST: '127.0.0.1',
            PORT: String(port),
            PUBLIC_URL: baseURL,
            DATA_DIR: process.env.E2E_DATA_DIR,
            BETA_ACCESS_CODES: process.env.E2E_ACCESS_CODE,
            // The account tests/admin.spec.ts signs up as, made admin at its sign-in.
            ADMIN_EMAILS: E2E_ADMIN_EMAIL,
            // Every test signs up a fresh account from 127.0.0.1; the default allows 10 an hour.
            IDP_SIGNUPS_PER_HOUR: '1000',
            // ...and enters the access code first: more than the default 10 a minute on a fast run.
            ACCESS_CODE_ATTEMPTS_PER_MINUTE: '1000',
            // The chat spec writes a thread longer than a page (26 turns) besides its other turns.
            CHAT_TURNS_PER_MINUTE: '1000',
            LOG_LEVEL: 'warn',
            // API keys are checked with the provider when saved: Web Search asks the local stub.
            BUILTIN_BRAVE_SEARCH_URL: stubURL,
            EGRESS_ALLOW_PRIVATE: '127.0.0.2',
            // A second model agents may choose (the stub answers); the default stays offline.
            LLM_MODELS: JSON.stringify([
              {
                id: 'stub',
                label: 'Stub model',
                provider: 'openai-compatible',
                model: 'stub-1',
                base_url: `${stubURL}/v1`,
              },
            ]),
            LLM_DEFAULT_MODEL: 'offline',
          },
        },
      ],
});
