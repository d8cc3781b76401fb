import { expect, type FrameLocator, type Page } from '@playwright/test';

/** Set-up and chat steps as a person does them, shared by the chat specs. */

export async function registerService(page: Page, name: string) {
  await page.goto('/services');
  const card = page.getByRole('listitem', { name, exact: true });
  await card.getByRole('button', { name: `Register Service ${name}` }).click();
  await expect(card.getByText('Connected')).toBeVisible();
}

/** /agents/create with the given tools ([service, action] pairs), saved. */
export async function createAgent(
  page: Page,
  name: string,
  tools: Array<[service: string, action: string]>,
  description = 'Adds numbers and keeps notes.',
) {
  await page.goto('/agents/create');
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('textbox', { name: 'Description' }).fill(description);
  for (const [service, action] of tools) {
    await page.getByRole('button', { name: service, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Actions for ${service}` });
    await dialog.getByRole('button', { name: `Add ${action}`, exact: true }).click();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
  }
  for (const [, action] of tools) await expect(page.getByTestId('selected-tools')).toContainText(action);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/agents\/?$/);
}

/** /agents → Start: the chat frame of the agent. */
export async function startAgentChat(page: Page, name: string): Promise<FrameLocator> {
  await page.goto('/agents');
  await page.getByRole('button', { name: `Start chat with ${name}` }).click();
  await expect(page).toHaveURL(/\/agents\/\d+\/chat$/);
  const frame = page.frameLocator('iframe[title="Agent chat"]');
  await expect(frame.getByTestId('empty-state').or(frame.getByTestId('user-message').first())).toBeVisible();
  return frame;
}

export async function newChat(frame: FrameLocator) {
  const panel = frame.getByTestId('thread-panel');
  if (!(await panel.isVisible())) await frame.getByRole('button', { name: 'Show conversations' }).click();
  await frame.getByRole('button', { name: 'New chat' }).first().click();
  await expect(frame.getByTestId('empty-state')).toBeVisible();
}

export async function send(frame: FrameLocator, text: string) {
  const box = frame.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}
