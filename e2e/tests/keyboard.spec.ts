import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { AGENT_LIMITS } from '@cadre/contract';
import { focusStop, stopsWithoutRing } from '../support/focus.ts';
import { registerService } from '../support/chat.ts';
import { signUpAndSignIn } from '../support/sign-in.ts';

/**
 * Forms and the keyboard (issue 27): an input takes what the server takes, and the server's
 * refusal is marked at its field; every Tab stop of every screen shows where the focus is; an agent
 * with a tool is made with the keyboard alone in at most 40 Tab presses. The tests share one
 * signed-in page (a sign-up costs seconds), in order.
 */
test.describe.configure({ mode: 'serial' });

let context: BrowserContext;
let page: Page;

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext();
  page = await context.newPage();
  await signUpAndSignIn(page);
});

test.afterAll(async () => {
  await context.close();
});

test('a name longer than the server takes is cut at its limit, and the server’s 422 is marked at the field', async () => {
  await page.goto('/agents/create');
  const name = page.getByRole('textbox', { name: 'Name' });
  const long = 'N'.repeat(150);
  await name.fill(long);
  await expect(name).toHaveValue('N'.repeat(AGENT_LIMITS.name));

  // A client out of step with the server (its limit gone): the server refuses, at the field.
  await name.evaluate((input) => input.removeAttribute('maxlength'));
  await name.fill(long);
  await page.getByRole('textbox', { name: 'Description' }).fill('Says hello');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toBeFocused();
  const message = page.getByText(`must be at most ${AGENT_LIMITS.name} characters`);
  await expect(message).toBeVisible();
  const describedBy = (await name.getAttribute('aria-describedby'))?.split(' ') ?? [];
  expect(describedBy).toContain(await message.getAttribute('id'));
  await expect(name).toHaveAccessibleDescription(`must be at most ${AGENT_LIMITS.name} characters`);
  await expect(page.getByText('Create Failed')).toHaveCount(0);
});

/** Presses Tab until `name` (a stop's name as focusStop gives it) has the focus; answers the presses. */
async function tabTo(name: RegExp, presses: { count: number }, shift = false) {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press(shift ? 'Shift+Tab' : 'Tab');
    presses.count++;
    const stop = await focusStop(page);
    expect(stop.ringed, `the focus shows on ${stop.name}`).toBe(true);
    if (name.test(stop.name)) return;
  }
  throw new Error(`no Tab stop matched ${String(name)}`);
}

test('an agent with one tool is created with the keyboard in at most 40 Tabs, and every Tab stop of every screen shows the focus', async () => {
  test.setTimeout(120_000);
  await registerService(page, 'Calculator');
  // Register hands the focus to the card's Disconnect, which took its place.
  await expect(
    page.getByRole('listitem', { name: 'Calculator', exact: true }).getByRole('button', {
      name: 'Disconnect Service Calculator',
    }),
  ).toBeFocused();

  await page.goto('/agents/create');
  await expect(page.getByRole('button', { name: 'Calculator', exact: true })).toBeVisible();
  const presses = { count: 0 };
  await tabTo(/"Name/, presses);
  await page.keyboard.type('Keyboard helper');
  await tabTo(/"Description/, presses);
  await page.keyboard.type('Made without a mouse');
  // The icons are one stop: the arrow keys choose inside it.
  await tabTo(/radio/, presses);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: 'Emoji 🤖' })).toBeChecked();
  await tabTo(/"Calculator"/, presses);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Actions for Calculator' });
  await expect(dialog).toBeVisible();
  await tabTo(/"Add /, presses);
  await page.keyboard.press('Enter');
  // The Add button turned into Remove, keeping the focus.
  await expect(dialog.getByRole('button', { name: /^Remove / })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // Back on the button that opened the dialog, its ring shown; the toast is no Tab stop.
  await expect(page.getByRole('button', { name: 'Calculator', exact: true })).toBeFocused();
  expect((await focusStop(page)).ringed).toBe(true);
  await tabTo(/"Save"/, presses, true);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/agents\/?$/);
  await expect(page.getByRole('cell', { name: 'Keyboard helper', exact: true })).toBeVisible();
  expect(presses.count).toBeLessThanOrEqual(40);

  // Every Tab stop of every screen (the chat frame's included) shows the focus.
  await page.getByRole('button', { name: 'Start chat with Keyboard helper' }).click();
  await expect(page).toHaveURL(/\/agents\/\d+\/chat$/);
  const agentId = page.url().match(/agents\/(\d+)/)![1];
  const screens = [
    '/info',
    '/agents',
    '/agents/create',
    `/agents/${agentId}/edit`,
    `/agents/${agentId}/chat`,
    '/services',
    '/services/1/actions',
    '/usage',
    '/api-keys',
    '/debug_info',
  ];
  const missing: Record<string, string[]> = {};
  for (const path of screens) {
    // Inside the app, as its links go: a full load would sign in again.
    await page.evaluate((to) => {
      window.history.pushState({}, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, path);
    // The chat page shows its frame, whose heading and composer are inside. The screen shown
    // before stays until the new one's chunks arrive, so wait for what this path shows: the chat's
    // composer, or a heading with no frame left on the page (the chat page was shown before /services).
    const main = page.getByRole('main');
    if (path.endsWith('/chat')) {
      await page.frameLocator('main iframe').getByRole('textbox', { name: 'Message' }).waitFor();
    } else {
      await expect(main.locator('iframe')).toHaveCount(0);
      await main.locator('h1').first().waitFor();
    }
    await page
      .locator('[aria-busy="true"]')
      .first()
      .waitFor({ state: 'detached' })
      .catch(() => {});
    const found = await stopsWithoutRing(page);
    if (found.length) missing[path] = found;
  }
  expect(missing).toEqual({});
});
