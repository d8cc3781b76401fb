import { expect, test } from '@playwright/test';
import {
  ACCESS_CODE,
  enterAccessCode,
  freshEmail,
  signUpAtProvider,
  signUpAndSignIn,
  TEST_PASSWORD,
} from '../support/sign-in.ts';
import { pickMenuItem } from '../support/menus.ts';

test('a new visitor passes the access code, signs up, stays signed in and logs out', async ({ page }) => {
  const cspViolations: string[] = [];
  // Anything the pages ask for and do not find, the browser's own requests (the icon) included.
  const notFound: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    if (/status of 404/.test(message.text())) notFound.push(`${message.location().url} on ${page.url()}`);
  });

  await page.goto('/info');
  await expect(page.getByRole('heading', { name: 'Cadre' })).toBeVisible();
  await expect(page.getByText('Please enter the code shared with you')).toBeVisible();

  // A wrong code: the toast, and the page stays.
  await enterAccessCode(page, 'not-the-code');
  await expect(page.getByText('Incorrect password')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Access' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('passwordSignedIn'))).toBeNull();

  // The right code: the flag is set and sign-in at the built-in provider follows.
  await enterAccessCode(page, ACCESS_CODE);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(new URL(page.url()).pathname).toMatch(/^\/idp\/interaction\//);
  expect(await page.evaluate(() => localStorage.getItem('passwordSignedIn'))).toBe('true');

  await signUpAtProvider(page, { name: 'E2E Person', email: freshEmail(), password: TEST_PASSWORD });

  // Back in the app, signed in, on the info page with the sidebar.
  await expect(page).toHaveURL(/\/info$/);
  await expect(page.getByRole('button', { name: 'Log Out' })).toBeVisible();
  expect(page.url()).not.toContain('code=');
  // Tokens are kept in memory only.
  const stored = await page.evaluate(
    () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
  );
  expect(stored).not.toMatch(/access_token|refresh_token|id_token/);

  // A reload signs in again through the provider's session, without a form.
  await page.reload();
  await expect(page).toHaveURL(/\/info$/);
  await expect(page.getByRole('button', { name: 'Log Out' })).toBeVisible();

  // Another protected page.
  await page.goto('/agents');
  // The reload signs in again through the provider: wait until the shell is back before moving on.
  await expect(page.getByRole('heading', { name: 'Agents', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/agents\/?$/);
  await page.goto('/info');
  await expect(page.getByRole('button', { name: 'Log Out' })).toBeVisible();

  // Log out through the dialog.
  await page.getByRole('button', { name: 'Log Out' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByText('Logout Confirmation')).toBeVisible();
  await expect(dialog.getByText('Are you sure you want to log out?')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Log Out' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Logout' }).click();

  // The provider session has ended: the logout redirect (/) is protected and leads to sign-in, and
  // so does any other protected page.
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.goto('/info');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(cspViolations).toEqual([]);
  expect(notFound).toEqual([]);
});

test('a first visit to a deep link comes back to it after the access code and sign-up', async ({ page }) => {
  // A link someone was sent, opened in a fresh browser: the gate shows in its place.
  await page.goto('/usage?from=link');
  await expect(page.getByText('Please enter the code shared with you')).toBeVisible();
  await enterAccessCode(page, ACCESS_CODE);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await signUpAtProvider(page, { name: 'Linked Person', email: freshEmail('link'), password: TEST_PASSWORD });
  await expect(page).toHaveURL(/\/usage\?from=link$/);
  await expect(page.getByRole('heading', { name: 'Usage', level: 1 })).toBeVisible();
});

test('a returning person signs in with their account; a wrong password is refused with a clear error', async ({
  page,
}) => {
  const email = freshEmail('returning');
  await page.goto('/info');
  await enterAccessCode(page, ACCESS_CODE);
  await signUpAtProvider(page, { name: 'Returning Person', email, password: TEST_PASSWORD });
  await expect(page.getByRole('button', { name: 'Log Out' })).toBeVisible();
  await page.getByRole('button', { name: 'Log Out' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  // The access-code flag survives logging out; the provider asks for the account again.
  await page.goto('/agents');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not the password at all');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('The email or password is incorrect.');
  await expect(page.getByLabel('Email')).toHaveValue(email);

  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/agents\/?$/);
  await expect(page.getByRole('button', { name: 'Log Out' })).toBeVisible();
});

test('the sign-in page takes the theme chosen in the app, else the system’s', async ({ page }) => {
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const LIGHT = 'rgb(248, 250, 252)';
  const DARK = 'rgb(11, 17, 32)';
  await page.emulateMedia({ colorScheme: 'light' });
  await signUpAndSignIn(page);
  await pickMenuItem(page, page.getByRole('button', { name: /^Account menu of / }), 'Dark', 'menuitemradio');
  await page.getByRole('button', { name: 'Log Out' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(await background()).toBe(DARK);
  // No choice kept: the system's.
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  expect(await background()).toBe(LIGHT);
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await background()).toBe(DARK);
});
