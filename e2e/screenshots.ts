// `npm run screenshots`: every screen of the web app at 1440 px and 375 px, light and dark, from a
// server started on a fresh data folder and seeded through the API. PNGs go to screenshots/. Each
// screen is also checked with axe; serious or critical violations are listed and fail the run.
import AxeBuilder from '@axe-core/playwright';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './support/chromium.ts';
import { ROOT, startServer } from './support/server.ts';

const OUT = path.join(ROOT, 'screenshots');

interface Shot {
  name: string;
  path: string;
  /** Runs after the page settles, before the picture (open a dialog, a menu, the drawer). */
  act?: (page: Page, mobile: boolean) => Promise<void>;
  mobileOnly?: boolean;
}

const server = await startServer();
const problems: string[] = [];
try {
  // Seed: agents through the API. Services are seeded when the services API is there.
  const descriptions = [
    'Reads my inbox every morning and drafts short replies to the mails that need one.',
    'Finds restaurants and shops near a place and compares their opening hours.',
    'Keeps my calendar tidy: lists, creates and moves events on request.',
    'Summarises the top Hacker News stories and related YouTube videos on a subject.',
  ];
  const names = ['Mail assistant', 'Place finder', 'Calendar manager', 'Tech news digest'];
  for (const [i, name] of names.entries()) {
    await server.api('POST', '/api/v1/agents/', {
      name,
      description: descriptions[i],
      guidelines: i === 0 ? 'Answer in English, keep replies under 100 words.' : null,
      tool_ids: [],
    });
  }
  let serviceId = 1;
  try {
    const services = (await server.api('GET', '/api/v1/services/')) as {
      id: number;
      auth_schemes: string[];
    }[];
    const noAuth = services.find((s) => s.auth_schemes.includes('NO_AUTH'));
    if (noAuth) {
      serviceId = noAuth.id;
      await server.api('POST', `/api/v1/services/${noAuth.id}/register_noauth_service`);
    }
  } catch (error) {
    console.warn(`services not seeded: ${(error as Error).message}`);
  }

  const shots: Shot[] = [
    { name: 'info', path: '/info' },
    { name: 'agents', path: '/agents' },
    {
      name: 'agents-tools-dialog',
      path: '/agents',
      act: async (page) => {
        await page.getByRole('button', { name: /0 Tools of Mail assistant/ }).click();
        await page.getByRole('dialog').waitFor();
      },
    },
    {
      name: 'agents-actions-menu',
      path: '/agents',
      act: async (page) => {
        await page.getByRole('button', { name: 'Actions for Mail assistant' }).click();
        await page.getByRole('menuitem', { name: 'Duplicate' }).waitFor();
      },
    },
    { name: 'agent-create', path: '/agents/create' },
    {
      name: 'agent-create-required',
      path: '/agents/create',
      act: async (page) => {
        await page.getByRole('button', { name: 'Save' }).click();
        await page.getByText('Name/Description Required').first().waitFor();
      },
    },
    { name: 'agent-edit', path: '/agents/1/edit' },
    { name: 'agent-chat', path: '/agents/1/chat' },
    { name: 'services', path: '/services' },
    { name: 'service-tools', path: `/services/${serviceId}/actions` },
    { name: 'debug', path: '/debug_info' },
    { name: 'copilot', path: '/copilot' },
    { name: 'demos-invalid', path: '/public/demosRedirect?demo=nope' },
    { name: 'not-found', path: '/no-such-page' },
    {
      name: 'drawer',
      path: '/info',
      mobileOnly: true,
      act: async (page) => {
        await page.getByRole('button', { name: 'Open menu' }).click();
        await page.getByTestId('sidebar-drawer').waitFor();
      },
    },
  ];

  fs.mkdirSync(OUT, { recursive: true });
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  for (const scheme of ['light', 'dark'] as const) {
    for (const [label, viewport] of [
      ['desktop', { width: 1440, height: 900 }],
      ['mobile', { width: 375, height: 812 }],
    ] as const) {
      const context = await browser.newContext({ viewport, colorScheme: scheme, reducedMotion: 'reduce' });
      // Past the beta access-code gate (the server runs without sign-in for these pictures).
      await context.addInitScript(() => localStorage.setItem('passwordSignedIn', 'true'));
      for (const shot of shots) {
        if (shot.mobileOnly && label !== 'mobile') continue;
        const page = await context.newPage();
        await page.goto(`${server.url}${shot.path}`, { waitUntil: 'load' });
        // The chat frame keeps a connection open, so 'networkidle' may never come: wait for quiet instead.
        await page.waitForLoadState('networkidle', { timeout: 3_000 }).catch(() => {});
        await page.waitForTimeout(300);
        await shot.act?.(page, label === 'mobile');
        await page.waitForTimeout(400);
        const file = path.join(OUT, `${shot.name}-${label}-${scheme}.png`);
        await page.screenshot({ path: file, fullPage: !shot.act });
        if (scheme === 'light') {
          const result = await new AxeBuilder({ page }).analyze();
          for (const v of result.violations.filter(
            (v) => v.impact === 'serious' || v.impact === 'critical',
          )) {
            const nodes = v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`).join(', ');
            problems.push(`${shot.name} (${label}): ${v.id} ${v.impact}: ${v.help} [${nodes}]`);
          }
        }
        await page.close();
      }
      await context.close();
    }
  }
  await browser.close();
  console.log(`screenshots written to ${path.relative(process.cwd(), OUT) || OUT}`);
} finally {
  await server.stop();
}
if (problems.length) {
  console.error(`accessibility problems (axe, serious or critical):\n${problems.join('\n')}`);
  process.exitCode = 1;
}
