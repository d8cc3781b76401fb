import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import {
  accessibilityProblems,
  checkEverySetting,
  createSampleData,
  SCREENS,
  type SampleData,
} from '../support/screens.ts';
import { ACCESS_CODE, signUpAndSignIn } from '../support/sign-in.ts';

/**
 * Every screen and dialog of the gallery (`npm run screens`), with its sample data, in light and
 * dark at 1280 px and 375 px: axe finds no serious or critical violation, and no document (the
 * chat frame's included) scrolls sideways. One test per screen, on one signed-in page: it opens the
 * screen once per width and switches the colour scheme in place (support/screens.ts,
 * `checkEverySetting`; after a switch axe checks the rules that read colours), and lists what it
 * found in every setting, each named. After a failure the next test starts again from a fresh
 * account and sample data (Playwright starts a new worker).
 */
// With more than one worker, the screens are shared between them; each worker makes its own account
// and sample data once.
test.describe.configure({ mode: 'parallel' });

let context: BrowserContext;
let page: Page;
let data: SampleData;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  context = await browser.newContext({ reducedMotion: 'reduce' });
  page = await context.newPage();
  // Leaving a form with unsaved changes asks; the next screen leaves it.
  page.on('dialog', (dialog) => void dialog.accept());
  await signUpAndSignIn(page);
  data = await createSampleData(page, {
    origin: test.info().project.use.baseURL!,
    accessCode: ACCESS_CODE,
  });
});

test.afterAll(async () => {
  await context.close();
});

for (const screen of SCREENS)
  test(screen.name, async ({ browser, baseURL }) => {
    const problems = await checkEverySetting(
      screen,
      { browser, page, baseURL: baseURL!, data },
      accessibilityProblems,
    );
    expect(problems).toEqual([]);
  });
