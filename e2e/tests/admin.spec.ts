import { expect, test, type Browser, type Page } from '@playwright/test';
import { seriousViolations } from '../support/screens.ts';
import {
  ACCESS_CODE,
  E2E_ADMIN_EMAIL,
  enterAccessCode,
  freshEmail,
  signUpAtProvider,
  TEST_PASSWORD,
} from '../support/sign-in.ts';

/** A new browser that signs up `name` with `email`, then opens the Agents screen. */
async function signUpInNewBrowser(browser: Browser, name: string, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto('/info');
  await enterAccessCode(page, ACCESS_CODE);
  await signUpAtProvider(page, { name, email, password: TEST_PASSWORD });
  await expect(page.getByRole('button', { name: 'Log Out' })).toBeVisible();
  await page.goto('/agents');
  await expect(page.getByRole('heading', { name: 'Agents', level: 1 })).toBeVisible();
  return page;
}

/** Issue 26: the admin console's People, as an admin uses it. */
test('an admin makes a person a member, then disables them: the person can no longer build, then nothing works', async ({
  browser,
}) => {
  // ADMIN_EMAILS names the e2e server's admin (so no account is made admin by signing up first):
  // its sign-in makes it one. Pat gets the default role, builder.
  const admin = await signUpInNewBrowser(browser, 'E2E Admin', E2E_ADMIN_EMAIL);
  const name = `Pat ${Date.now()}`;
  const email = freshEmail('pat');
  const person = await signUpInNewBrowser(browser, name, email);
  await expect(person.getByRole('link', { name: 'Create New Agent' })).toBeVisible();
  await expect(person.getByRole('link', { name: 'Admin' })).toHaveCount(0);

  await admin.getByRole('link', { name: 'Admin' }).click();
  await expect(admin.getByRole('heading', { name: 'Admin' })).toBeVisible();
  await admin.getByRole('searchbox').fill(name);
  const row = admin.getByRole('row', { name });
  await expect(row).toBeVisible();
  await row.getByRole('combobox', { name: `Role of ${name}` }).selectOption('Member');
  await expect(row.getByRole('combobox', { name: `Role of ${name}` })).toHaveValue('member');
  // axe finds no serious problem on the screen (it is not in the screens matrix, whose accounts
  // are not admins).
  expect(await seriousViolations(admin)).toEqual([]);

  await person.reload();
  await expect(person.getByText('No agents yet. Agents shared with you will be listed here.')).toBeVisible();
  await expect(person.getByRole('link', { name: 'Create New Agent' })).toHaveCount(0);

  await row.getByRole('button', { name: `Disable ${name}` }).click();
  await admin
    .getByRole('alertdialog', { name: 'Disable account' })
    .getByRole('button', { name: 'Disable' })
    .click();
  await expect(row.getByText('Disabled')).toBeVisible();

  // Their provider session ended with the account: the reload asks them to sign in, which is refused.
  await person.reload();
  await expect(person.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await person.getByLabel('Email').fill(email);
  await person.getByLabel('Password').fill(TEST_PASSWORD);
  await person.getByRole('button', { name: 'Sign in' }).click();
  await expect(person.getByRole('heading', { name: 'Account disabled' })).toBeVisible();
});
