import { expect, type Page } from '@playwright/test';

/** The beta access code the server under test accepts (see playwright.config.ts). */
export const ACCESS_CODE = process.env.E2E_ACCESS_CODE ?? 'e2e-access-code';

/** The one account the server makes admin at sign-in (ADMIN_EMAILS); only tests/admin.spec.ts uses it. */
export const E2E_ADMIN_EMAIL = 'admin-e2e@example.com';

/** A password the built-in provider accepts. */
export const TEST_PASSWORD = 'a long enough password';

/** An address no other test has used. */
export function freshEmail(prefix = 'person'): string {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

export async function enterAccessCode(page: Page, code: string): Promise<void> {
  await page.getByLabel('Access Code').fill(code);
  await page.getByRole('button', { name: 'Access' }).click();
}

/** On the built-in provider's sign-in page: follow 'Create an account' and submit the form. */
export async function signUpAtProvider(
  page: Page,
  account: { name: string; email: string; password: string },
): Promise<void> {
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('Name').fill(account.name);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Create account' }).click();
}

/**
 * A new visitor: opens /info, enters the access code, signs up a fresh account at the built-in
 * provider (/idp) and lands back on /info signed in (the shell's navigation is shown).
 */
export async function signUpAndSignIn(page: Page): Promise<void> {
  await page.goto('/info');
  await enterAccessCode(page, ACCESS_CODE);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await signUpAtProvider(page, { name: 'E2E Person', email: freshEmail(), password: TEST_PASSWORD });
  await expect(page).toHaveURL(/\/info$/);
  // 'Log Out' is in the sidebar on wide screens and inside the drawer on small ones.
  await expect(page.getByRole('button', { name: /^(Log Out|Open menu)$/ })).toBeVisible();
}
