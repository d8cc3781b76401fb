import { expect, test, type FrameLocator, type Page } from '@playwright/test';
import { signUpAndSignIn } from '../support/sign-in.ts';

/**
 * Five rows of the offline model's phrase table (apps/server/test/offline-phrasing/phrase-table.ts)
 * typed into the chat frame in Chromium, as a newcomer would: a greeting, arithmetic in symbols and
 * in words, a note whose title comes from the sentence, and a request no tool can serve.
 */
const AGENT = 'E2E phrasing agent';

test.describe.configure({ mode: 'serial' });

let page: Page;

test.beforeAll(async ({ browser }) => {
  page = await (await browser.newContext()).newPage();
  await signUpAndSignIn(page);
  for (const name of ['Calculator', 'Notes']) {
    await page.goto('/services');
    const card = page.getByRole('listitem', { name, exact: true });
    await card.getByRole('button', { name: `Register Service ${name}` }).click();
    await expect(card.getByText('Connected')).toBeVisible();
  }
  await page.goto('/agents/create');
  await page.getByRole('textbox', { name: 'Name' }).fill(AGENT);
  await page.getByRole('textbox', { name: 'Description' }).fill('Computes and keeps notes.');
  for (const [service, action] of [
    ['Calculator', 'Evaluate expression'],
    ['Notes', 'Create note'],
  ] as const) {
    await page.getByRole('button', { name: service, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Actions for ${service}` });
    await dialog.getByRole('button', { name: `Add ${action}`, exact: true }).click();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
  }
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/agents\/?$/);
});

test.afterAll(async () => {
  await page.context().close();
});

async function freshChat(): Promise<FrameLocator> {
  await page.goto('/agents');
  await page.getByRole('button', { name: `Start chat with ${AGENT}` }).click();
  const frame = page.frameLocator('iframe[title="Agent chat"]');
  await expect(frame.getByTestId('empty-state').or(frame.getByTestId('user-message').first())).toBeVisible();
  const panel = frame.getByTestId('thread-panel');
  if (!(await panel.isVisible())) await frame.getByRole('button', { name: 'Show conversations' }).click();
  await frame.getByRole('button', { name: 'New chat' }).first().click();
  await expect(frame.getByTestId('empty-state')).toBeVisible();
  return frame;
}

async function say(frame: FrameLocator, text: string) {
  const box = frame.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  await expect(frame.getByTestId('user-message').last()).toContainText(text);
}

test('"hi there" gets the tools with an example each, and runs none', async () => {
  const frame = await freshChat();
  await say(frame, 'hi there');
  const answer = frame.getByTestId('assistant-message').last();
  await expect(answer).toContainText('Here is what I can do');
  await expect(answer).toContainText('what is (3 + 4) * 2?');
  await expect(answer).toContainText('note down: call the bank');
  await expect(frame.getByTestId('tool-step')).toHaveCount(0);
});

test('"what is 12 + 30?" runs Evaluate and answers 42', async () => {
  const frame = await freshChat();
  await say(frame, 'what is 12 + 30?');
  await expect(frame.getByTestId('tool-step').first()).toHaveAttribute('data-state', 'output-available');
  await expect(frame.getByTestId('assistant-message').last()).toContainText('12 + 30 = 42');
});

test('"divide 250 by 4" in words runs Evaluate and answers 62.5', async () => {
  const frame = await freshChat();
  await say(frame, 'divide 250 by 4');
  await expect(frame.getByTestId('tool-step').first()).toHaveAttribute('data-state', 'output-available');
  await expect(frame.getByTestId('assistant-message').last()).toContainText('250 / 4 = 62.5');
});

test('"note down: call the bank" asks to create the note titled "call the bank"', async () => {
  const frame = await freshChat();
  await say(frame, 'note down: call the bank');
  await expect(frame.getByTestId('approval').first()).toBeVisible();
  const step = frame.getByTestId('tool-step').first();
  await expect(step).toContainText('"title": "call the bank"');
  await expect(step).not.toContainText('note down');
});

test('"write me a haiku about autumn" is refused, naming what the agent can do', async () => {
  const frame = await freshChat();
  await say(frame, 'write me a haiku about autumn');
  const answer = frame.getByTestId('assistant-message').last();
  await expect(answer).toContainText("I can't do that with this agent's tools");
  await expect(answer).toContainText('evaluate');
  await expect(frame.getByTestId('tool-step')).toHaveCount(0);
});
