import type { Page } from '@playwright/test';

/**
 * Creates an API key on the API keys screen (the page must show it) with one scope and no expiry,
 * as a user does: returns the key the "Your new API key" dialog showed, once that dialog is closed.
 */
export async function createApiKey(page: Page, name: string, scope: 'chat' | 'copilot:mint' | 'agents:read') {
  await page.getByRole('button', { name: 'Create API key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create API key' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByText(new RegExp(`^${scope}`)).click();
  await dialog.getByLabel('Expires').selectOption('Never');
  await dialog.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByRole('dialog', { name: 'Your new API key' });
  const key = (await shown.getByTestId('new-api-key').textContent())!.trim();
  await shown.getByRole('button', { name: 'Done' }).click();
  return key;
}
