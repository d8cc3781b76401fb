import { expect, test, type FrameLocator, type Page } from '@playwright/test';
import {
  PHRASE_TABLE,
  type Category,
  type PhraseRow,
} from '../../apps/server/test/offline-phrasing/phrase-table.ts';
import { pickMenuItem } from '../support/menus.ts';
import { signUpAndSignIn } from '../support/sign-in.ts';

/**
 * Five rows of the offline model's phrase table (apps/server/test/offline-phrasing/phrase-table.ts),
 * read from the table and typed into the chat frame in Chromium as a newcomer would: the first row
 * of each of these categories whose agent has the whole Calculator and Notes services, which is the
 * agent this spec builds (every action of both, in the services' order, as the table's toolkits).
 */
const AGENT = 'E2E phrasing agent';
const SERVICES = ['Calculator', 'Notes'];
const TOOLKITS = ['calculator', 'notes'];
const CATEGORIES: Category[] = ['greeting', 'arithmetic', 'notes', 'refusal', 'follow-up'];
const ROWS = CATEGORIES.map((category) =>
  PHRASE_TABLE.find((row) => row.category === category && row.tools.join() === TOOLKITS.join())!,
);

test.describe.configure({ mode: 'serial' });

let page: Page;

test.beforeAll(async ({ browser }) => {
  page = await (await browser.newContext()).newPage();
  await signUpAndSignIn(page);
  for (const name of SERVICES) {
    await page.goto('/services');
    const card = page.getByRole('listitem', { name, exact: true });
    await card.getByRole('button', { name: `Register Service ${name}` }).click();
    await expect(card.getByText('Connected')).toBeVisible();
  }
  await page.goto('/agents/create');
  await page.getByRole('textbox', { name: 'Name' }).fill(AGENT);
  await page.getByRole('textbox', { name: 'Description' }).fill('Computes and keeps notes.');
  for (const service of SERVICES) {
    await page.getByRole('button', { name: service, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Actions for ${service}` });
    // Every action of the service: each added one turns its "Add" button into "Remove".
    const adds = dialog.getByRole('button', { name: /^Add / });
    // count() does not wait: the dialog lists the actions once they have loaded (0 on a busy run).
    await expect(adds.first()).toBeVisible();
    const count = await adds.count();
    expect(count).toBeGreaterThan(0);
    for (let left = count; left > 0; left--) {
      await adds.first().click();
      await expect(adds).toHaveCount(left - 1);
    }
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

/** Sends one turn and waits for its answer to finish (the composer is free again). */
async function say(frame: FrameLocator, text: string, turn: number) {
  const box = frame.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  await expect(frame.getByTestId('user-message').nth(turn)).toContainText(text);
  await expect(frame.getByTestId('assistant-message').nth(turn)).toBeVisible();
  await expect(frame.getByRole('button', { name: 'Stop' })).toHaveCount(0);
}

/** The arguments as the tool step shows them (pretty-printed JSON). */
const shown = (name: string, value: unknown) => `"${name}": ${JSON.stringify(value)}`;

for (const row of ROWS) {
  const turns = typeof row.say === 'string' ? [row.say] : row.say;
  test(`${row.category}: ${JSON.stringify(row.say)}`, async () => {
    const frame = await freshChat();
    for (const [turn, text] of turns.entries()) await say(frame, text, turn);
    const answer = frame.getByTestId('assistant-message').last();
    await expectOutcome(frame, answer, row);
  });
}

async function expectOutcome(
  frame: FrameLocator,
  answer: ReturnType<FrameLocator['getByTestId']>,
  row: PhraseRow,
) {
  if (!row.call) {
    // An answer with no tool at all.
    for (const text of [row.reply ?? []].flat()) await expect(answer).toContainText(text);
    await expect(frame.getByTestId('tool-step')).toHaveCount(0);
    return;
  }
  const step = answer.getByTestId('tool-step').first();
  await expect(step).toContainText(row.call);
  if (row.result !== undefined) {
    await expect(step).toHaveAttribute('data-state', 'output-available');
    await expect(answer).toContainText(`= ${row.result}`);
  }
  if (row.args) {
    // A write waits for approval with its arguments on the card; a read shows them when opened.
    if ((await step.getAttribute('data-state')) !== 'approval-requested')
      await step.getByRole('button').first().click();
    for (const [name, value] of Object.entries(row.args))
      await expect(step).toContainText(shown(name, value));
  }
}

/** What no answer may show: a tool's internal name, "X returned:", JSON, an error class. */
const INTERNALS = /returned:|create_note|list_notes|search_notes|delete_note|[{}]|ToolFailure|AI_\w+/;

/** Sends one turn, approves the write it asks for (when it asks), and returns the answer. */
async function ask(frame: FrameLocator, text: string, turn: number, approve = false) {
  await say(frame, text, turn);
  const answer = frame.getByTestId('assistant-message').nth(turn);
  if (approve) {
    await answer.getByTestId('approval').getByRole('button', { name: 'Approve' }).click();
    await expect(answer.getByTestId('tool-step').last()).toHaveAttribute('data-state', 'output-available');
    await expect(frame.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  }
  // The answer's words (its tool steps show the arguments and results as they are).
  return answer.locator('.cadre-markdown').last();
}

test('notes: noted, listed and deleted, in the words a person would use', async () => {
  const frame = await freshChat();
  const noted = await ask(frame, 'note: buy bread', 0, true);
  await expect(noted).toContainText('Noted: buy bread.');
  await expect(await ask(frame, 'pls remember to renew passport', 1, true)).toContainText(
    'Noted: renew passport.',
  );
  const list = await ask(frame, 'show me my notes', 2);
  await expect(list).toContainText('You have 2 notes:');
  await expect(list.getByRole('listitem')).toHaveText(['renew passport', 'buy bread']);
  // Named by its topic: searched for, then its deletion offered for approval.
  const deleted = await ask(frame, 'delete the note about renew passport', 3, true);
  await expect(deleted).toContainText("Deleted the note 'renew passport'.");
  for (const words of await frame.getByTestId('assistant-message').locator('.cadre-markdown').all())
    await expect(words).not.toContainText(INTERNALS);
});

/** A handbook whose fact sits after its first 400 characters. */
const HANDBOOK = [
  '# Office handbook',
  '',
  'This handbook describes how we work together in the office. ' +
    'It covers our values, how we welcome new colleagues, how we share the kitchen, and how we keep the ' +
    'office tidy for everyone who comes in early or stays late. Read it in your first week and ask your ' +
    'team lead about anything that is unclear; we update it whenever the office changes. ' +
    'Staff parking is free in the north car park after 6 pm on weekdays.',
].join('\n');

test('knowledge: the sentence that holds the fact, and a question the files do not answer', async () => {
  await page.goto('/agents');
  await pickMenuItem(page, page.getByRole('button', { name: `Actions for ${AGENT}`, exact: true }), 'Edit');
  await page
    .getByRole('navigation', { name: 'Agent sections' })
    .getByRole('link', { name: 'Knowledge' })
    .click();
  await page
    .getByLabel('Files to add')
    .setInputFiles([{ name: 'handbook.md', mimeType: 'text/markdown', buffer: Buffer.from(HANDBOOK) }]);
  await expect(page.getByTestId('knowledge-files').getByText('handbook.md')).toBeVisible();

  const frame = await freshChat();
  const parking = await ask(frame, 'What does the handbook say about parking?', 0);
  await expect(parking).toContainText('Staff parking is free in the north car park after 6 pm on weekdays.');
  await expect(parking).not.toContainText('This handbook describes');
  const gym = await ask(frame, 'According to my documents, how much does the office gym cost?', 1);
  await expect(gym).toContainText(/don't cover|found nothing about/);
  await expect(gym).not.toContainText('Staff parking');
});
