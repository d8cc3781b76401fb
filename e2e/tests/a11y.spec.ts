import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signUpAndSignIn } from '../support/sign-in.ts';

/**
 * axe-core on every screen a person reaches before and after signing in: no serious or critical
 * violation (WCAG 2.x A and AA rules and axe's best practices).
 */

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  // axe really looked at the page (an empty or blocked page passes no rule).
  expect(results.passes.length).toBeGreaterThan(10);
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((node) => node.target.join(' ')).slice(0, 5),
    }));
}

for (const colorScheme of ['light', 'dark'] as const)
  test(`the access-code page and the provider sign-in page (${colorScheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await page.goto('/info');
    await expect(page.getByText('Please enter the code shared with you')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Access Code').fill(process.env.E2E_ACCESS_CODE ?? 'e2e-access-code');
    await page.getByRole('button', { name: 'Access' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // The provider's pages with an error shown.
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password').fill('not a real password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect(page.getByRole('button', { name: 'Create account' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

test('the demo redirect page', async ({ page }) => {
  await page.goto('/public/demosRedirect?demo=nope');
  await expect(page.getByRole('heading', { name: 'Invalid Demo' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // 'Redirecting...' while the demo login is held.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/demos/login', async (route) => {
    await held;
    await route.abort();
  });
  await page.goto('/public/demosRedirect?demo=vcdemo');
  await expect(page.getByText('Redirecting...')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  release();
  // Closing the page waits for route handlers in flight; the held login must not hold the teardown
  // (it outlasted the test's minute once on a busy machine).
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

for (const colorScheme of ['light', 'dark'] as const)
  test(`the signed-in screens (${colorScheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await signUpAndSignIn(page);
    const screens: { path: string; ready: (page: Page) => Promise<void> }[] = [
      {
        path: '/info',
        ready: (p) => expect(p.getByRole('heading', { level: 1 }).first()).toBeVisible(),
      },
      { path: '/agents', ready: (p) => expect(p.getByText('No agents found.')).toBeVisible() },
      {
        path: '/agents/create',
        ready: (p) => expect(p.getByRole('heading', { name: 'Create Agent' })).toBeVisible(),
      },
      {
        path: '/services',
        ready: (p) => expect(p.getByRole('searchbox', { name: 'Search services...' })).toBeVisible(),
      },
    ];
    for (const screen of screens) {
      await page.goto(screen.path);
      await screen.ready(page);
      // Let loading states settle into their final content before checking.
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      expect({ path: screen.path, violations: await seriousViolations(page) }).toEqual({
        path: screen.path,
        violations: [],
      });
    }
  });
