import { expect, test } from '@playwright/test';
import { createAgent, send, startAgentChat } from '../support/chat.ts';
import { pickMenuItem } from '../support/menus.ts';
import { signUpAndSignIn } from '../support/sign-in.ts';

/**
 * A model per agent (issue 20): the editor's model select decides which model answers in the chat.
 * The server offers the stub provider's model besides the offline default (playwright.config.ts).
 */
test("the editor's model select changes which model answers", async ({ page }) => {
  await signUpAndSignIn(page);
  await createAgent(page, 'Switcher', []);

  const chatOnce = async (text: string) => {
    const frame = await startAgentChat(page, 'Switcher');
    await send(frame, text);
    const answer = frame.getByTestId('assistant-message').last();
    await expect(answer.getByTestId('answer-meta')).toBeVisible();
    return answer;
  };

  // The default is the offline model.
  const first = await chatOnce('Hello there');
  // Each answer names its model as the model list does (its label), not by its id.
  await expect(first.getByTestId('answer-meta')).toContainText('Offline model');

  await page.goto('/agents');
  await pickMenuItem(page, page.getByRole('button', { name: 'Actions for Switcher', exact: true }), 'Edit');
  const select = page.getByRole('combobox', { name: 'Model' });
  await expect(select.getByRole('option')).toHaveText([
    'Default (Offline model)',
    'Stub model',
    'Offline model (default)',
  ]);
  await select.selectOption({ label: 'Stub model' });
  await page.getByRole('spinbutton', { name: /Temperature/ }).fill('0.4');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/agents\/?$/);

  const second = await chatOnce('Hello again');
  await expect(second).toContainText('The stub model says hello.');
  await expect(second.getByTestId('answer-meta')).toContainText('Stub model');
  await expect(second.getByTestId('answer-meta').getByText('Stub model')).toHaveAttribute('title', 'stub');
});
