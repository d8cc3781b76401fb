// `npm run screens`: a picture of every screen and dialog of the web app, in light and dark, at
// 1280 px and 375 px, from the built server started on a fresh data folder. It signs up at the
// built-in provider like a newcomer, makes sample data through the screens, and writes PNGs to
// screenshots/ (not committed). Each picture is checked with axe; a serious or critical violation,
// or a page that scrolls sideways, is listed and fails the run (tests/screens-a11y.spec.ts runs the
// same checks in `npm test`).
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './support/chromium.ts';
import { accessibilityProblems, checkEverySetting, createSampleData, SCREENS } from './support/screens.ts';
import { ROOT, SCRIPT_ACCESS_CODE, startServer } from './support/server.ts';
import { enterAccessCode, freshEmail, signUpAtProvider, TEST_PASSWORD } from './support/sign-in.ts';

const OUT = path.join(ROOT, 'screenshots');

async function signUp(page: Page) {
  await page.goto('/info');
  await enterAccessCode(page, SCRIPT_ACCESS_CODE);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await signUpAtProvider(page, { name: 'Sam Newcomer', email: freshEmail('sam'), password: TEST_PASSWORD });
  await page.waitForURL(/\/info$/);
}

const server = await startServer({ signIn: true });
const problems: string[] = [];
let count = 0;
try {
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const context = await browser.newContext({ baseURL: server.url, reducedMotion: 'reduce' });
  const page = await context.newPage();
  // Leaving a form with unsaved changes asks; the next screen leaves it.
  page.on('dialog', (dialog) => void dialog.accept());
  await signUp(page);
  const data = await createSampleData(page, { origin: server.url, accessCode: SCRIPT_ACCESS_CODE });

  for (const screen of SCREENS)
    for (const problem of await checkEverySetting(
      screen,
      { browser, page, baseURL: server.url, data },
      async (target, setting) => {
        await target.screenshot({
          path: path.join(OUT, `${screen.name}-${setting.label}-${setting.scheme}.png`),
          fullPage: !screen.overlay,
        });
        count++;
        return accessibilityProblems(target, setting);
      },
    ))
      problems.push(`${screen.name}, ${problem}`);
  await browser.close();
  console.log(`${count} screenshots written to ${path.relative(process.cwd(), OUT) || OUT}`);
} finally {
  await server.stop();
}
if (problems.length) {
  console.error(`problems found:\n${problems.join('\n')}`);
  process.exitCode = 1;
}
