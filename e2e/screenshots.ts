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
import {
  createSampleData,
  SCHEMES,
  SCREENS,
  seriousViolations,
  show,
  sidewaysOverflow,
  VIEWPORTS,
} from './support/screens.ts';
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

  for (const scheme of SCHEMES) {
    for (const { label, mobile, viewport } of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      for (const screen of SCREENS) {
        if (screen.mobileOnly && !mobile) continue;
        // A screen before sign-in gets a context of its own, with no session.
        const signedOut = screen.signedOut
          ? await browser.newContext({
              baseURL: server.url,
              viewport,
              colorScheme: scheme,
              reducedMotion: 'reduce',
            })
          : undefined;
        const target = signedOut ? await signedOut.newPage() : page;
        const where = `${screen.name} (${label}, ${scheme})`;
        try {
          const undo = await show(target, screen, data, mobile);
          await target.screenshot({
            path: path.join(OUT, `${screen.name}-${label}-${scheme}.png`),
            fullPage: !screen.overlay,
          });
          count++;
          for (const violation of await seriousViolations(target)) problems.push(`${where}: ${violation}`);
          for (const [frame, px] of Object.entries(await sidewaysOverflow(target)))
            problems.push(`${where}: ${frame} scrolls sideways by ${px} px`);
          await screen.leave?.(target);
          await undo();
        } catch (error) {
          problems.push(`${where}: could not be shown: ${(error as Error).message.split('\n')[0]}`);
        } finally {
          await signedOut?.close();
        }
      }
    }
  }
  await browser.close();
  console.log(`${count} screenshots written to ${path.relative(process.cwd(), OUT) || OUT}`);
} finally {
  await server.stop();
}
if (problems.length) {
  console.error(`problems found:\n${problems.join('\n')}`);
  process.exitCode = 1;
}
