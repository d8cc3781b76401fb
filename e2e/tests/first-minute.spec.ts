import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { OTHER_HOST } from '../support/chromium.ts';
import { ACCESS_CODE, enterAccessCode, freshEmail, TEST_PASSWORD } from '../support/sign-in.ts';
import { freePort, ROOT } from '../support/server.ts';

/**
 * What a newcomer sees in the first minute: `node apps/server/dist/main.js` in a terminal (a pty
 * made by `script`) prints a banner and then one line per request; a page opened on another name
 * of the machine goes to PUBLIC_URL, and one on a host that is not this server's says which
 * address to open.
 */
/** Text written to the terminal, without colours and with plain line ends. */
const plain = (text: string) => stripVTControlCharacters(text).replace(/\r/g, '');

test('at a terminal: a banner with the URL, the access code and the setup, then one line per request', async () => {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-tty-'));
  // `script` runs the server on a pseudo-terminal and copies what it writes to our stdout.
  const child: ChildProcess = spawn('script', ['-qfc', 'node apps/server/dist/main.js', '/dev/null'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'production' },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  try {
    await expect.poll(() => plain(output), { timeout: 30_000 }).toContain('One line per request follows.');
    const banner = plain(output);
    expect(banner).toMatch(/Open\s+http:\/\/localhost:\d+/);
    expect(banner).toContain(`http://localhost:${port}`);
    expect(banner).toMatch(/Access code\s+[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}/);
    expect(banner).toContain('stored sealed in the database');
    expect(banner).toMatch(new RegExp(`Data folder\\s+${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(banner).toMatch(/Database\s+SQLite at /);
    expect(banner).toMatch(/Sign-in\s+built in, at http:\/\/localhost:\d+\/idp/);
    expect(banner).toMatch(/Model\s+the built-in offline model/);
    // No address other than PUBLIC_URL is advertised (sign-in would fail on it).
    expect(banner).not.toMatch(/http:\/\/(127\.0\.0\.1|0\.0\.0\.0|\d+\.\d+\.\d+\.\d+)/);
    expect(banner).not.toContain('"level"');

    const before = plain(output).length;
    const response = await fetch(`http://127.0.0.1:${port}/backend/api/v1/agents/?q=secret-value`);
    expect(response.status).toBe(401);
    await expect
      .poll(() => plain(output).slice(before), { timeout: 10_000 })
      .toMatch(/GET \/backend\/api\/v1\/agents\/ 401 \d+ ms/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const lines = plain(output)
      .slice(before)
      .split('\n')
      .filter((line) => line.includes('/backend/api/v1/agents/'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: GET \/backend\/api\/v1\/agents\/ 401 \d+ ms$/);
    expect(plain(output)).not.toContain('secret-value');
  } finally {
    if (child.exitCode === null) {
      process.kill(-child.pid!, 'SIGINT');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a page on another name of this machine is redirected to PUBLIC_URL before sign-in', async ({
  page,
  baseURL,
}) => {
  const publicUrl = new URL(baseURL!);
  await page.goto(`http://127.0.0.1:${publicUrl.port}/info`);
  await expect(page).toHaveURL(`${publicUrl.origin}/info`);
  await expect(page.getByLabel('Access Code')).toBeVisible();
});

test('a page on a host that is not this server says which URL to open', async ({ page, baseURL }) => {
  const publicUrl = new URL(baseURL!);
  // OTHER_HOST resolves to this machine in the test browser (support/chromium.ts).
  const response = await page.goto(`http://${OTHER_HOST}:${publicUrl.port}/agents`);
  expect(response?.status()).toBe(421);
  await expect(page.getByRole('heading', { name: `Open Cadre at ${publicUrl.origin}` })).toBeVisible();
  await page.getByRole('link', { name: publicUrl.origin }).first().click();
  await expect(page).toHaveURL(new RegExp(`^${publicUrl.origin}/`));
});

/**
 * Sign-up to the first answer, as a newcomer clicks: every trusted click in the page or the chat
 * frame after "Create account" is counted (the frame is on the same origin and shares the
 * counter). The figures are printed for docs/benchmarks.md; only the clicks are asserted.
 */
const countClicks = () => {
  document.addEventListener(
    'click',
    (event) => {
      if (!event.isTrusted) return;
      localStorage.setItem('e2e-clicks', String(Number(localStorage.getItem('e2e-clicks') ?? 0) + 1));
    },
    { capture: true },
  );
};
const clicks = (page: Page) => page.evaluate(() => Number(localStorage.getItem('e2e-clicks') ?? 0));

async function signUpCounting(page: Page): Promise<number> {
  await page.addInitScript(countClicks);
  await page.goto('/info');
  await enterAccessCode(page, ACCESS_CODE);
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('Name').fill('First Minute');
  await page.getByLabel('Email').fill(freshEmail('first-minute'));
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.evaluate(() => localStorage.setItem('e2e-clicks', '0'));
  const started = performance.now();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/info$/);
  // The "Create account" press itself is the sign-up, not a click towards the answer.
  await page.evaluate(() => localStorage.setItem('e2e-clicks', '0'));
  return started;
}

async function firstAnswer(page: Page, starter: string, answer: RegExp) {
  await expect(page).toHaveURL(/\/agents\/\d+\/chat$/);
  const frame = page.frameLocator('iframe[title="Agent chat"]');
  await frame.getByRole('button', { name: starter }).click();
  await expect(frame.getByTestId('assistant-message').last()).toContainText(answer);
}

function report(path: string, started: number, clickCount: number) {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  test
    .info()
    .annotations.push({ type: 'first answer', description: `${path}: ${clickCount} clicks, ${seconds} s` });
  console.log(
    `first answer, ${path}: ${clickCount} clicks after sign-up, ${seconds} s from "Create account"`,
  );
}

test('a new account gets a first answer from the ready assistant two clicks after sign-up', async ({
  page,
}) => {
  const started = await signUpCounting(page);
  await page.getByRole('button', { name: 'Start chatting' }).click();
  await firstAnswer(page, 'What is 12 times 7?', /84/);
  const clickCount = await clicks(page);
  report('ready assistant', started, clickCount);
  expect(clickCount).toBeLessThanOrEqual(3);
  // The offer is for someone without agents: it has made one, so it is gone.
  await page.goto('/info');
  await expect(page.getByRole('heading', { name: 'Example agents' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start chatting' })).toBeHidden();
});

test('a template from the Agents screen answers three clicks after sign-up', async ({ page }) => {
  const started = await signUpCounting(page);
  await page.getByRole('link', { name: 'Agents' }).first().click();
  await page.getByRole('button', { name: 'Try Calendar planner' }).click();
  await firstAnswer(page, 'When am I free tomorrow?', /free/i);
  const clickCount = await clicks(page);
  report('template gallery', started, clickCount);
  expect(clickCount).toBeLessThanOrEqual(3);
  await page.goto('/services');
  await expect(
    page.getByRole('listitem', { name: 'Calendar', exact: true }).getByText('Connected'),
  ).toBeVisible();
});
