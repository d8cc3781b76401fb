import { defineConfig } from '@playwright/test';

// Minimal local configuration; the lead's harness replaces it (it starts the built server).
export default defineConfig({
  testDir: './tests',
  workers: 1,
  use: {
    baseURL: process.env.E2E_BASE_URL,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
