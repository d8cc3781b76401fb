import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { createAgent, registerService, send, startAgentChat } from '../support/chat.ts';
import { pickMenuItem } from '../support/menus.ts';
import { signUpAndSignIn } from '../support/sign-in.ts';

/**
 * Usage and cost (issue 20): a new person's Usage screen is empty; after a chat turn whose tool the
 * offline model calls, it shows the day, the agent and the model with the turn, its estimated
 * tokens and its tool call, as a chart and a table, and downloads the same as CSV.
 */
test('the Usage screen shows a turn by day, agent and model, with a chart, and downloads it as CSV', async ({
  page,
}) => {
  await signUpAndSignIn(page);
  const openUsage = async () => {
    await pickMenuItem(page, page.getByRole('button', { name: 'Account menu of E2E Person' }), 'Usage');
    await expect(page.getByRole('heading', { name: 'Usage' })).toBeVisible();
  };
  await openUsage();
  await expect(page.getByTestId('usage-empty')).toContainText('No usage in this period');
  await expect(page.getByTestId('usage-budget')).toHaveText(
    'This month: 0 tokens used. No monthly budget is set.',
  );

  await registerService(page, 'Calculator');
  await createAgent(page, 'Counter', [['Calculator', 'Add']]);
  const frame = await startAgentChat(page, 'Counter');
  await send(frame, 'add 2 and 3');
  await expect(frame.getByTestId('assistant-message').last()).toContainText('5');

  await openUsage();
  const today = new Date().toISOString().slice(0, 10);
  const day = page.getByRole('row', { name: today });
  await expect(day).toContainText('estimated');
  const cells = day.getByRole('cell');
  await expect(cells.nth(1)).toHaveText('1');
  await expect(cells.nth(5)).toHaveText('1');
  const chart = page.getByRole('img', { name: 'Input and output tokens by day' });
  await expect(chart).toBeVisible();
  // Stacked bars for today, drawn by the chart library.
  await expect(chart.locator('.recharts-bar-rectangle path').first()).toBeVisible();
  await expect(page.getByTestId('usage-budget')).toContainText(/This month: [1-9][\d,]* tokens used\./);

  await page.getByText('By agent').click();
  await expect(page.getByRole('row', { name: 'Counter' })).toContainText('estimated');
  await page.getByText('By model').click();
  const offline = page.getByRole('row', { name: 'offline' });
  await expect(offline).toContainText('0.00');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^cadre-usage-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = fs
    .readFileSync((await download.path())!, 'utf8')
    .trim()
    .split('\n');
  expect(lines[0]).toBe(
    'day,agent_id,agent_name,model,turns,input_tokens,output_tokens,total_tokens,estimated,cost,tool_calls,errors',
  );
  expect(lines.slice(1)).toEqual([expect.stringMatching(/^,,,offline,1,\d+,\d+,\d+,yes,0,1,0$/)]);
});
