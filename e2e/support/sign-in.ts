import { expect, type Page } from '@playwright/test';

export const ACCESS_CODE = process.env.E2E_ACCESS_CODE ?? 'e2e-access-code';

export async function enterAccessCode(page: Page, code: string) {
  await page.getByLabel('Access Code').fill(code);
  await page.getByRole('button', { name: 'Access' }).click();
}

/**
 * A new visitor: passes the beta access code, creates an account at the built-in provider and
 * lands back in the app signed in (on /info). Returns the account it created.
 */
export async function signUpAndSignIn(page: Page, name = 'E2E Person') {
  const email = `person-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const password = 'a long enough password';
  await page.goto('/info');
  await enterAccessCode(page, ACCESS_CODE);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/info$/);
  await expect(page.getByRole('button', { name: 'Log Out' })).toBeVisible();
  return { email, password };
}
