import { expect, test, type FrameLocator, type Page } from '@playwright/test';
import { signUpAndSignIn } from '../support/sign-in.ts';

/**
 * Approvals that never lie, in Chromium on the offline model: "Always allow for this agent" on the
 * card skips the card next time and shows in the agent editor, which can switch it back; a card
 * counts down and, when its time is up, reads "Expired — ask again" and sends nothing however it is
 * clicked (the browser's clock is fast-forwarded; the server's refusal of a late decision is in
 * apps/server/test/approval-permissions.int.test.ts).
 */
const NOTE = (body: string) => `create note title: "Groceries" body: "${body}"`;

async function setUp(page: Page, agent: string): Promise<number> {
  await signUpAndSignIn(page);
  await page.goto('/services');
  const card = page.getByRole('listitem', { name: 'Notes', exact: true });
  await card.getByRole('button', { name: 'Register Service Notes' }).click();
  await expect(card.getByText('Connected')).toBeVisible();
  await page.goto('/agents/create');
  await page.getByRole('textbox', { name: 'Name' }).fill(agent);
  await page.getByRole('textbox', { name: 'Description' }).fill('Keeps notes.');
  await page.getByRole('button', { name: 'Notes', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Actions for Notes' });
  await dialog.getByRole('button', { name: 'Add Create note', exact: true }).click();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/agents\/?$/);
  await page.getByRole('button', { name: `Start chat with ${agent}` }).click();
  await expect(page).toHaveURL(/\/agents\/\d+\/chat/);
  return Number(/\/agents\/(\d+)\/chat/.exec(page.url())![1]);
}

function chatFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe[title="Agent chat"]');
}

async function send(frame: FrameLocator, text: string) {
  const box = frame.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

test('"Always allow for this agent" skips the card next time, shows in the editor, and can be switched back', async ({
  page,
}) => {
  const agentId = await setUp(page, 'E2E approvals agent');
  const frame = chatFrame(page);
  await send(frame, NOTE('milk'));
  const card = frame.getByTestId('approval');
  await expect(card).toBeVisible();
  await expect(card.getByTestId('approval-expiry')).toContainText(/Expires in 1[45] min/);
  await card.getByRole('button', { name: 'Always allow for this agent' }).click();
  await expect(frame.getByTestId('tool-step').last()).toHaveAttribute('data-state', 'output-available');

  // The next note runs at once: no card.
  await send(frame, NOTE('bread'));
  await expect(frame.getByTestId('assistant-message')).toHaveCount(2);
  await expect(frame.getByTestId('assistant-message').last()).toContainText('Noted: Groceries.');
  await expect(frame.getByTestId('tool-step').last()).toHaveAttribute('data-state', 'output-available');
  await expect(frame.getByTestId('approval')).toHaveCount(0);

  // The editor shows the choice and switches it back.
  await page.goto(`/agents/${agentId}/edit`);
  const select = page.getByRole('combobox', { name: 'Approval for Create note' });
  await expect(select).toHaveValue('allow');
  await expect(page.getByTestId('tool-permissions')).toContainText('Allowed from the chat');
  await select.selectOption({ label: 'Ask every time' });
  await expect(page.getByText('Create note asks every time')).toBeVisible();
  await expect(select).toHaveValue('ask');

  // The card is back.
  await page.goto(`/agents/${agentId}/chat`);
  await send(chatFrame(page), NOTE('eggs'));
  await expect(chatFrame(page).getByTestId('approval')).toBeVisible();
});

test('a card whose time is up reads "Expired — ask again", has nothing to click and sends nothing', async ({
  page,
}) => {
  await page.clock.install();
  await setUp(page, 'E2E expiry agent');
  const frame = chatFrame(page);
  await send(frame, NOTE('tea'));
  const card = frame.getByTestId('tool-step').last();
  await expect(card.getByTestId('approval')).toBeVisible();
  const decisions: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/approvals/')) decisions.push(request.url());
  });

  await page.clock.fastForward('16:00');
  await expect(card.getByTestId('approval-expired')).toHaveText('Expired — ask again');
  await expect(card.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Always allow for this agent' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Deny' })).toHaveCount(0);
  await expect(card.getByText('Expired', { exact: true })).toBeVisible();

  // Try everything the expired card still offers (a card that kept its buttons would send its
  // decision here), then click the card itself.
  const clicked = await card
    .getByRole('button')
    .evaluateAll((buttons) => buttons.map((button) => (button as HTMLElement).click()).length);
  expect(clicked).toBeGreaterThan(0);
  await card.click({ force: true });
  // Anything those clicks sent left the frame before this request does.
  const chat = page.frames().find((f) => new URL(f.url()).pathname.startsWith('/chainlit'))!;
  expect(await chat.evaluate(() => fetch('/backend/api/v1/public/health/live').then((r) => r.status))).toBe(
    200,
  );
  expect(decisions).toEqual([]);
  // Ask again: a new card.
  await send(frame, NOTE('coffee'));
  await expect(frame.getByTestId('tool-step').last().getByTestId('approval')).toBeVisible();
});
