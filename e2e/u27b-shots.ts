// Temporary (not committed): screenshots of the screens this branch changes.
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './support/chromium.ts';
import { SCRIPT_ACCESS_CODE, startServer } from './support/server.ts';
import { enterAccessCode, freshEmail, signUpAtProvider, TEST_PASSWORD } from './support/sign-in.ts';

const OUT = '/tmp/u27b-shots';
const server = await startServer({ signIn: true });
try {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const context = await browser.newContext({ baseURL: server.url, reducedMotion: 'reduce' });
  const page = await context.newPage();
  page.on('dialog', (d) => void d.accept());
  await page.goto('/info');
  await enterAccessCode(page, SCRIPT_ACCESS_CODE);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await signUpAtProvider(page, { name: 'Sam Newcomer', email: freshEmail('sam'), password: TEST_PASSWORD });
  await page.waitForURL(/\/info$/);
  const shoot = async (name: string, path: string, ready: (p: Page) => Promise<unknown>, full = true) => {
    for (const [label, width] of [['1280', 1280], ['375', 375]] as const)
      for (const scheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height: 800 });
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(path);
        await ready(page);
        await page.waitForTimeout(300);
        await page.screenshot({ path: `${OUT}/${name}-${label}-${scheme}.png`, fullPage: full });
      }
  };
  await shoot('info', '/info', (p) => p.getByRole('button', { name: 'Start chatting' }).waitFor());
  await shoot('agents-empty', '/agents', (p) => p.getByRole('button', { name: 'Try Calendar planner' }).waitFor());
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/info');
  await page.getByRole('button', { name: 'Start chatting' }).click();
  await page.waitForURL(/\/agents\/\d+\/chat$/);
  const id = /agents\/(\d+)\/chat/.exec(page.url())![1];
  const frame = page.frameLocator('iframe[title="Agent chat"]');
  await frame.getByRole('button', { name: 'What is 12 times 7?' }).click();
  await frame.getByTestId('assistant-message').last().waitFor();
  await shoot('chat', `/agents/${id}/chat`, (p) => p.frameLocator('iframe[title="Agent chat"]').getByRole('textbox', { name: 'Message' }).waitFor(), false);
  for (const section of ['configure', 'knowledge', 'publish', 'triggers', 'history'])
    await shoot(`edit-${section}`, `/agents/${id}/edit?section=${section}`, (p) => p.getByRole('navigation', { name: 'Agent sections' }).waitFor());
  await shoot('usage', '/usage', (p) => p.getByTestId('usage-chart').waitFor());
  await shoot('agents', '/agents', (p) => p.getByTestId('agent-row').first().waitFor());
  // The sign-in page with the app's stored choice against the system's.
  const fresh = await browser.newContext({ baseURL: server.url });
  const signedOut = await fresh.newPage();
  await signedOut.emulateMedia({ colorScheme: 'light' });
  await signedOut.goto('/info');
  await signedOut.evaluate(() => localStorage.setItem('cadre-color-mode', 'dark'));
  await enterAccessCode(signedOut, SCRIPT_ACCESS_CODE);
  await signedOut.getByRole('heading', { name: 'Sign in' }).waitFor();
  await signedOut.screenshot({ path: `${OUT}/idp-stored-dark-system-light.png` });
  await signedOut.evaluate(() => localStorage.setItem('cadre-color-mode', 'light'));
  await signedOut.emulateMedia({ colorScheme: 'dark' });
  await signedOut.reload();
  await signedOut.screenshot({ path: `${OUT}/idp-stored-light-system-dark.png` });
  await signedOut.evaluate(() => localStorage.removeItem('cadre-color-mode'));
  await signedOut.reload();
  await signedOut.screenshot({ path: `${OUT}/idp-system-dark.png` });
  await browser.close();
} finally {
  await server.stop();
}
