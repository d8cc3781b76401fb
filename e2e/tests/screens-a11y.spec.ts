import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import {
  createSampleData,
  SCHEMES,
  SCREENS,
  seriousViolations,
  show,
  sidewaysOverflow,
  VIEWPORTS,
  type SampleData,
} from '../support/screens.ts';
import { ACCESS_CODE, signUpAndSignIn } from '../support/sign-in.ts';

/**
 * Every screen and dialog of the gallery (`npm run screens`), with its sample data, in light and
 * dark at 1280 px and 375 px: axe finds no serious or critical violation, and no document (the
 * chat frame's included) scrolls sideways. One test per screen and setting, on one signed-in page:
 * a failure names the screen, and the next test starts again from a fresh account and sample data.
 */
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

for (const scheme of SCHEMES)
  for (const { label, mobile, viewport } of VIEWPORTS)
    for (const screen of SCREENS) {
      if (screen.mobileOnly && !mobile) continue;
      test(`${screen.name}, ${label} ${viewport.width} px, ${scheme}`, async ({ browser }) => {
        // A screen before sign-in gets a context of its own, with no session.
        const signedOut = screen.signedOut
          ? await browser.newContext({
              baseURL: test.info().project.use.baseURL,
              viewport,
              colorScheme: scheme,
              reducedMotion: 'reduce',
            })
          : undefined;
        const target = signedOut ? await signedOut.newPage() : page;
        if (!signedOut) {
          await page.setViewportSize(viewport);
          await page.emulateMedia({ colorScheme: scheme });
        }
        try {
          const undo = await show(target, screen, data, mobile);
          const problems = await seriousViolations(target);
          for (const [where, px] of Object.entries(await sidewaysOverflow(target)))
            problems.push(`${where} scrolls sideways by ${px} px`);
          await screen.leave?.(target);
          await undo();
          expect(problems).toEqual([]);
        } finally {
          await signedOut?.close();
        }
      });
    }
