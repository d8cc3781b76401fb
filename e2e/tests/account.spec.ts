import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { pickFromOpenMenu, pickMenuItem } from '../support/menus.ts';
import { signUpAndSignIn } from '../support/sign-in.ts';

/** The user menu: who is signed in, the theme, "Your data" (export and delete) and sign-out. */

const accountMenu = (page: Page) => page.getByRole('button', { name: 'Account menu of E2E Person' });
const openMenu = async (page: Page) => {
  await accountMenu(page).click();
  return page.getByRole('menu');
};

test('the user menu exports the data as a file and deletes the account after typing DELETE', async ({
  page,
}) => {
  await signUpAndSignIn(page);
  // The avatar is the provider's `picture` (the built-in provider draws the initials).
  const picture = page.getByRole('button', { name: 'Account menu of E2E Person' }).locator('img');
  await expect(picture).toBeVisible();
  await expect(picture).toHaveAttribute('src', /\/idp\/avatars\/[^/]+\.svg$/);
  expect(await picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const menu = await openMenu(page);
  await expect(menu.getByText('E2E Person')).toBeVisible();
  await expect(menu.getByText(/@example\.com$/)).toBeVisible();
  await page.keyboard.press('Escape');

  // The theme is remembered: dark survives a reload.
  await pickMenuItem(page, accountMenu(page), 'Dark', 'menuitemradio');
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Account menu of E2E Person' })).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await pickMenuItem(page, accountMenu(page), 'Light', 'menuitemradio');
  await expect(page.locator('html')).toHaveClass(/\blight\b/);

  // Export: a JSON file with the profile.
  await pickMenuItem(page, accountMenu(page), 'Your data');
  const dialog = page.getByRole('dialog', { name: 'Your data' });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Download my data' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('cadre-my-data.json');
  const exported = JSON.parse(fs.readFileSync((await download.path())!, 'utf8')) as {
    profile: { subject: string };
    agents: unknown[];
  };
  expect(exported.profile.subject).not.toBe('');
  expect(exported.agents).toEqual([]);
  await expect(page.getByText('Export ready').first()).toBeVisible();

  // Delete: refused until DELETE is typed, then the account goes and the person is signed out.
  const remove = dialog.getByRole('button', { name: 'Delete my account' });
  await expect(remove).toBeDisabled();
  await dialog.getByLabel('Type DELETE to confirm').fill('delete');
  await expect(remove).toBeDisabled();
  await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
  const deleted = page.waitForResponse(
    (r) => r.url().endsWith('/backend/api/v1/users/me') && r.request().method() === 'DELETE',
  );
  await remove.click();
  expect((await deleted).status()).toBe(204);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the user menu and Your data fit the screen without sideways scrolling', async ({ page }) => {
    await signUpAndSignIn(page);
    const menu = await openMenu(page);
    await expect(menu.getByRole('menuitem', { name: 'Log Out' })).toBeVisible();
    const box = await menu.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    await pickFromOpenMenu(page, 'Your data');
    await expect(page.getByRole('dialog', { name: 'Your data' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });

  test('the disconnect question and the demos page fit the screen without sideways scrolling', async ({
    page,
  }) => {
    const scrollWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
    await signUpAndSignIn(page);
    await page.goto('/services');
    const calculator = page.getByRole('listitem', { name: 'Calculator', exact: true });
    await calculator.getByRole('button', { name: 'Register Service Calculator' }).click();
    await calculator.getByRole('button', { name: 'Disconnect Service Calculator' }).click();
    const question = page.getByRole('alertdialog', { name: 'Disconnect Calculator?' });
    await expect(question.getByText('No agent uses it.')).toBeVisible();
    expect(await scrollWidth()).toBeLessThanOrEqual(375);
    await question.getByRole('button', { name: 'Cancel' }).click();

    await page.goto('/public/demosRedirect?demo=nodemo');
    await expect(page.getByRole('link', { name: 'Try the Sales Assistant demo' })).toBeVisible();
    expect(await scrollWidth()).toBeLessThanOrEqual(375);
  });
});
