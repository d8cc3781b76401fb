import { expect, test } from '@playwright/test';
import { signUpAndSignIn } from '../support/sign-in.ts';

/** The shell on a phone, the not-found and error screens, and the demo redirect's refusal. */

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the menu button opens a drawer at most 250 px wide whose links navigate and close it', async ({
    page,
  }) => {
    await signUpAndSignIn(page);
    // The fixed sidebar is hidden; the main navigation lives in the drawer.
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    const drawer = page.getByTestId('sidebar-drawer');
    await expect(drawer).toBeHidden();

    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(drawer).toBeVisible();
    // Measured once the slide-in animation has finished (layout width, in CSS pixels).
    const { width, left } = await drawer.evaluate(async (element) => {
      await Promise.all(element.getAnimations({ subtree: true }).map((animation) => animation.finished));
      return { width: (element as HTMLElement).offsetWidth, left: element.getBoundingClientRect().left };
    });
    expect(width).toBeGreaterThan(0);
    expect(width).toBeLessThanOrEqual(250);
    expect(Math.round(left)).toBe(0);

    await drawer.getByRole('link', { name: 'Agents' }).click();
    await expect(page).toHaveURL(/\/agents\/?$/);
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Agents', level: 1 })).toBeVisible();

    // The close button closes it too, and the page stays.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(drawer).toBeVisible();
    await drawer.getByRole('button', { name: 'Close menu' }).click();
    await expect(drawer).toBeHidden();
    await expect(page).toHaveURL(/\/agents\/?$/);

    // Escape closes it; Log Out is reachable from the drawer.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(drawer.getByRole('button', { name: 'Log Out' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();

    await page.getByRole('button', { name: 'Open menu' }).click();
    await drawer.getByRole('link', { name: 'Info' }).click();
    await expect(page).toHaveURL(/\/info$/);
    await expect(drawer).toBeHidden();

    // No horizontal scrolling at this width.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

test('an agent that does not exist shows a not-found state; a malformed id is the 404 page', async ({
  page,
}) => {
  await signUpAndSignIn(page);

  await page.goto('/agents/987654321/edit');
  await expect(page.getByRole('heading', { name: 'Agent not found' })).toBeVisible();
  await expect(page.getByText('This agent does not exist.')).toBeVisible();
  // Nothing to retry: the only way on is back to the list.
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Back to agents' }).click();
  await expect(page).toHaveURL(/\/agents\/?$/);

  await page.goto('/agents/not-a-number/edit');
  await expect(page.getByRole('heading', { name: '404' })).toBeVisible();
  await expect(page.getByText('Page not found.')).toBeVisible();
});

test('a failing agent load offers to try again', async ({ page }) => {
  await signUpAndSignIn(page);
  let failing = true;
  await page.route(/\/backend\/api\/v1\/agents\/\d+\/agent$/, async (route) => {
    if (failing)
      return route.fulfill({ status: 503, json: { detail: 'Service Unavailable', code: 'db_unavailable' } });
    return route.fulfill({
      json: {
        id: 4242,
        name: 'Recovered Agent',
        description: 'Loaded on the second try',
        guidelines: null,
        tools: [],
      },
    });
  });
  await page.goto('/agents/4242/edit');
  await expect(page.getByText('Error loading the agent.')).toBeVisible();
  failing = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Recovered Agent' })).toBeVisible();
});

test('a render failure shows the route error screen, which reveals the error on request', async ({
  page,
}) => {
  await signUpAndSignIn(page);
  // An answer that breaks the agents page's contract (an object where a list belongs).
  await page.route(/\/backend\/api\/v1\/agents\/?(\?.*)?$/, (route) =>
    route.request().method() === 'GET' ? route.fulfill({ json: { broken: true } }) : route.continue(),
  );
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Agents' }).click();
  await expect(page.getByRole('heading', { name: 'Something went wrong!' })).toBeVisible();
  await expect(page.getByTestId('route-error-message')).toHaveCount(0);
  await page.getByRole('button', { name: 'Show Error' }).click();
  await expect(page.getByTestId('route-error-message')).not.toBeEmpty();
  await page.getByRole('button', { name: 'Hide Error' }).click();
  await expect(page.getByTestId('route-error-message')).toHaveCount(0);
});

test("/public/demosRedirect with an unknown demo says 'Invalid Demo' and logs in nowhere", async ({
  page,
}) => {
  const demoRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/demos')) demoRequests.push(request.url());
  });
  await page.goto('/public/demosRedirect?demo=nope');
  await expect(page.getByRole('heading', { name: 'Invalid Demo' })).toBeVisible();
  await page.goto('/public/demosRedirect');
  await expect(page.getByRole('heading', { name: 'Invalid Demo' })).toBeVisible();
  expect(demoRequests).toEqual([]);
  // Outside the shell: no access-code page, no sign-in.
  await expect(page.getByLabel('Access Code')).toHaveCount(0);
  expect(new URL(page.url()).pathname).toBe('/public/demosRedirect');
});
