import { expect, test, type Locator, type Page } from '@playwright/test';
import { pickMenuItem } from '../support/menus.ts';
import { signUpAndSignIn } from '../support/sign-in.ts';

/**
 * The agents list and form (spec sections 2, 4, 5, 8) through the real server, as a new person:
 * the empty state, create (with the blank-field rule), edit, duplicate, delete and search.
 */

const rows = (page: Page) => page.getByTestId('agent-row');
const rowOf = (page: Page, name: string) =>
  rows(page).filter({ has: page.getByRole('cell', { name, exact: true }) });

async function openActions(page: Page, name: string, item: 'Edit' | 'Duplicate' | 'Delete') {
  await pickMenuItem(page, page.getByRole('button', { name: `Actions for ${name}`, exact: true }), item);
}

/**
 * An emoji avatar's background and the muted tint of `palette`, both as the browser computes them
 * where the avatar is (the page, the chat frame or the copilot's shadow root, each with its theme).
 */
const tintOf = (avatar: Locator, palette: string) =>
  avatar.evaluate((element, palette) => {
    const probe = document.createElement('span');
    probe.style.backgroundColor = `var(--chakra-colors-${palette}-muted)`;
    element.parentElement!.append(probe);
    const expected = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return { actual: getComputedStyle(element).backgroundColor, expected };
  }, palette);

/** The colours a generated avatar is drawn in, and the shades of `palette` it may use (as rgb). */
const fillsOf = (avatar: Locator, palette: string) =>
  avatar.evaluate((element, palette) => {
    const probe = document.createElement('span');
    element.parentElement!.append(probe);
    const rgb = (color: string) => {
      probe.style.color = color;
      return getComputedStyle(probe).color;
    };
    // Painted fills only: not `none`, nor the gradients some styles reference.
    const fills = Array.from(element.querySelectorAll('[fill]'))
      .map((node) => node.getAttribute('fill')!)
      .filter((fill) => fill !== 'none' && !fill.startsWith('url('))
      .map(rgb);
    const shades = ['200', '400', '500', '700', '900'].map((shade) =>
      rgb(`var(--chakra-colors-${palette}-${shade})`),
    );
    const blackOrWhite = [rgb('#000'), rgb('#fff')];
    probe.remove();
    return { fills: [...new Set(fills)], shades, blackOrWhite };
  }, palette);

/** Each of the avatar's colours is one of the palette's shades (or black/white for the face). */
async function expectDrawnIn(avatar: Locator, palette: string) {
  const { fills, shades, blackOrWhite } = await fillsOf(avatar, palette);
  expect(new Set(shades).size).toBe(shades.length);
  expect(fills.filter((fill) => shades.includes(fill)).length).toBeGreaterThanOrEqual(2);
  expect(fills.every((fill) => shades.includes(fill) || blackOrWhite.includes(fill))).toBe(true);
}

/** An emoji avatar is painted on its palette's muted tint (a real colour, not transparent). */
async function expectTintedIn(avatar: Locator, palette: string) {
  const { actual, expected } = await tintOf(avatar, palette);
  expect(expected).not.toBe('rgba(0, 0, 0, 0)');
  expect(actual).toBe(expected);
  // Not the default look: the brand tint is another colour.
  expect((await tintOf(avatar, 'brand')).expected).not.toBe(expected);
}

async function createAgent(page: Page, name: string, description: string) {
  await page.getByRole('link', { name: 'Create New Agent' }).click();
  await expect(page).toHaveURL(/\/agents\/create$/);
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('textbox', { name: 'Description' }).fill(description);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Agent Created').last()).toBeVisible();
  await expect(page).toHaveURL(/\/agents\/?$/);
  await expect(rowOf(page, name)).toBeVisible();
}

test('a person creates, edits, duplicates, searches and deletes agents', async ({ page }) => {
  await signUpAndSignIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Agents' }).click();
  await expect(page).toHaveURL(/\/agents\/?$/);

  // A new account has no agents: the empty state points to the form.
  await expect(page.getByText('No agents found.')).toBeVisible();
  await page.getByRole('link', { name: 'Create an agent!' }).click();
  await expect(page).toHaveURL(/\/agents\/create$/);
  await expect(page.getByRole('heading', { name: 'Create Agent' })).toBeVisible();

  // Blank name and description: the error toast, and the form stays.
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Name/Description Required')).toBeVisible();
  await expect(page).toHaveURL(/\/agents\/create$/);
  // Whitespace only is blank too.
  await page.getByRole('textbox', { name: 'Name' }).fill('   ');
  await page.getByRole('textbox', { name: 'Description' }).fill('Answers questions about the weather');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Name/Description Required').last()).toBeVisible();
  await expect(page).toHaveURL(/\/agents\/create$/);

  await page.getByRole('textbox', { name: 'Name' }).fill('Weather Helper');
  await page.getByRole('textbox', { name: 'Guidelines' }).fill('Answer in one short paragraph.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Agent Created')).toBeVisible();
  await expect(page).toHaveURL(/\/agents\/?$/);
  const weather = rowOf(page, 'Weather Helper');
  await expect(weather).toBeVisible();
  await expect(weather).toContainText('Answers questions about the weather');
  await expect(weather.getByRole('button', { name: '0 Tools of Weather Helper' })).toBeVisible();

  // Edit: the form is filled with the saved agent; the new description is saved.
  await openActions(page, 'Weather Helper', 'Edit');
  await expect(page).toHaveURL(/\/agents\/\d+\/edit$/);
  await expect(page.getByRole('heading', { name: 'Edit Weather Helper' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Guidelines' })).toHaveValue(
    'Answer in one short paragraph.',
  );
  await page.getByRole('textbox', { name: 'Description' }).fill('Forecasts for any city');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Agent Updated')).toBeVisible();
  await expect(page).toHaveURL(/\/agents\/?$/);
  await expect(weather).toContainText('Forecasts for any city');

  // The change was stored: a reload shows it.
  await page.reload();
  await expect(rowOf(page, 'Weather Helper')).toContainText('Forecasts for any city');

  // Duplicate: '{name} (Copy)' with the same description.
  await openActions(page, 'Weather Helper', 'Duplicate');
  await expect(page.getByText('Agent created successfully.')).toBeVisible();
  const copy = rowOf(page, 'Weather Helper (Copy)');
  await expect(copy).toBeVisible();
  await expect(copy).toContainText('Forecasts for any city');
  await expect(rows(page)).toHaveCount(2);

  // The copy has no guidelines.
  await openActions(page, 'Weather Helper (Copy)', 'Edit');
  await expect(page.getByRole('heading', { name: 'Edit Weather Helper (Copy)' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Guidelines' })).toHaveValue('');
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/agents\/?$/);

  // A third agent, then search narrows the list.
  await createAgent(page, 'Mail Sorter', 'Files incoming mail into folders');
  await expect(rows(page)).toHaveCount(3);
  const search = page.getByRole('searchbox', { name: 'Search agents' });
  await search.fill('mail');
  await expect(rows(page)).toHaveCount(1);
  await expect(rowOf(page, 'Mail Sorter')).toBeVisible();
  await search.fill('forecasts');
  await expect(rows(page)).toHaveCount(2);
  await search.fill('zzzqqq');
  await expect(rows(page)).toHaveCount(0);
  await expect(page.getByText('No agents found.')).toBeVisible();
  await search.fill('');
  await expect(rows(page)).toHaveCount(3);

  // Delete asks first; Cancel keeps the agent.
  await openActions(page, 'Weather Helper (Copy)', 'Delete');
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Weather Helper (Copy)');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(rows(page)).toHaveCount(3);

  await openActions(page, 'Weather Helper (Copy)', 'Delete');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Agent deleted successfully.')).toBeVisible();
  await expect(rowOf(page, 'Weather Helper (Copy)')).toHaveCount(0);
  await expect(rows(page)).toHaveCount(2);
  await page.reload();
  await expect(rows(page)).toHaveCount(2);
});

test('leaving the form with unsaved changes asks first', async ({ page }) => {
  await signUpAndSignIn(page);
  await page.goto('/agents/create');
  await page.getByRole('textbox', { name: 'Name' }).fill('Half-written agent');
  await page.getByRole('link', { name: 'Cancel' }).click();

  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByText('Discard changes?')).toBeVisible();
  await dialog.getByRole('button', { name: 'Keep editing' }).click();
  await expect(page).toHaveURL(/\/agents\/create$/);
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('Half-written agent');

  await page.getByRole('link', { name: 'Cancel' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Discard changes' }).click();
  await expect(page).toHaveURL(/\/agents\/?$/);
  await expect(page.getByText('No agents found.')).toBeVisible();
});

test('tools from a registered service are added to an agent, grouped by app, and removed', async ({
  page,
}) => {
  await signUpAndSignIn(page);

  // Register the built-in Calculator (no authentication) on /services.
  await page.goto('/services');
  const calculator = page.getByTestId('service-card').filter({ hasText: 'Calculator' });
  await calculator.getByRole('button', { name: 'Register Service Calculator' }).click();
  await expect(page.getByText('Service Registered Successfully').first()).toBeVisible();
  await expect(calculator.getByRole('button', { name: 'Disconnect Service Calculator' })).toBeVisible();

  await page.goto('/agents/create');
  await expect(page.getByRole('heading', { name: 'Active Services' })).toBeVisible();
  await expect(page.getByText('Click on a service below to view and add tools.')).toBeVisible();
  await page.getByRole('button', { name: 'Calculator' }).click();

  const dialog = page.getByRole('dialog', { name: 'Actions for Calculator' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Add Add', exact: true })).toBeVisible();
  // Fuzzy search on the display name.
  await dialog.getByRole('searchbox', { name: 'Search actions...' }).fill('multply');
  await expect(dialog.getByRole('button', { name: 'Add Multiply' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Add Subtract' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Add Multiply' }).click();
  await expect(page.getByText('Action added').first()).toBeVisible();
  await expect(page.getByText('Multiply added to agent')).toBeVisible();
  await dialog.getByRole('searchbox', { name: 'Search actions...' }).fill('');
  await dialog.getByRole('button', { name: 'Add Divide' }).click();
  await expect(page.getByText('Divide added to agent')).toBeVisible();
  // A selected tool shows as added, with no second add, and can be removed there.
  await expect(dialog.getByRole('button', { name: 'Add Multiply' })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Remove Multiply' })).toBeVisible();
  await expect(dialog.getByText('Added')).toHaveCount(2);
  await dialog.getByRole('button', { name: 'Remove Divide' }).click();
  await expect(dialog.getByRole('button', { name: 'Add Divide' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Add Divide' }).click();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  const selected = page.getByTestId('selected-tools');
  await expect(selected.getByText('Calculator', { exact: true })).toBeVisible();
  await expect(selected.getByRole('button', { name: /^Remove / })).toHaveCount(2);

  await selected.getByRole('button', { name: 'Remove Divide' }).click();
  await expect(selected.getByRole('button', { name: /^Remove / })).toHaveCount(1);
  await expect(selected.getByText('Divide')).toHaveCount(0);

  await page.getByRole('textbox', { name: 'Name' }).fill('Bookkeeper');
  await page.getByRole('textbox', { name: 'Description' }).fill('Does sums');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Agent Created')).toBeVisible();
  await expect(page).toHaveURL(/\/agents\/?$/);
  await page.getByRole('button', { name: '1 Tools of Bookkeeper' }).click();
  const tools = page.getByRole('dialog');
  await expect(tools.getByText('Multiply')).toBeVisible();
  await expect(tools.getByText('Divide')).toHaveCount(0);

  // Disconnecting Calculator asks first and names the agent whose tools stop working.
  await page.goto('/services');
  await calculator.getByRole('button', { name: 'Disconnect Service Calculator' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Disconnect Calculator?' });
  await expect(confirm.getByText('Used by 1 agent:')).toBeVisible();
  await expect(confirm.getByRole('list', { name: 'Agents that use it' })).toHaveText('Bookkeeper');
  await confirm.getByRole('button', { name: 'Disconnect' }).click();
  await expect(confirm).toBeHidden();
  await expect(calculator.getByText('Status: INACTIVE | Auth: NO_AUTH')).toBeVisible();

  // The agent keeps the tool and says it needs reconnecting, in the list, its tools and the editor.
  await page.goto('/agents');
  const reconnect = rowOf(page, 'Bookkeeper').getByRole('link', {
    name: 'Needs reconnecting: Reconnect Calculator on the Services page',
  });
  await expect(reconnect).toBeVisible();
  await rowOf(page, 'Bookkeeper').getByRole('button', { name: '1 Tools of Bookkeeper' }).click();
  await expect(page.getByRole('dialog').getByText('Needs reconnecting')).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await openActions(page, 'Bookkeeper', 'Edit');
  const stale = page.getByTestId('selected-tools');
  await expect(stale.getByText('Needs reconnecting')).toBeVisible();
  await stale.getByRole('link', { name: 'Reconnect Calculator on the Services page' }).click();
  await expect(page).toHaveURL(/\/services$/);

  // The chat says the same when the tool is asked for, with the way to reconnect.
  await page.goto('/agents');
  await rowOf(page, 'Bookkeeper').getByRole('button', { name: 'Start chat with Bookkeeper' }).click();
  const frame = page.frameLocator('iframe[title="Agent chat"]');
  const box = frame.getByRole('textbox', { name: 'Message' });
  await box.fill('multiply 6 and 7');
  await box.press('Enter');
  const step = frame.getByTestId('tool-step').first();
  await expect(step).toHaveAttribute('data-state', 'output-error');
  await step.getByRole('button').first().click();
  await expect(step).toContainText(
    'Multiply needs reconnecting: connect Calculator again on the Services page',
  );
  await expect(step.getByRole('link', { name: /reconnect/i })).toBeVisible();
  // The answer names the service too, with a Reconnect link, and no error class.
  const words = frame.getByTestId('assistant-message').last().locator('.cadre-markdown').last();
  await expect(words).toContainText('connect Calculator again');
  await expect(words.getByRole('link', { name: 'Reconnect' })).toBeVisible();
  await expect(words).not.toContainText('ToolFailure');

  // Reconnected, the mark goes.
  await page.goto('/services');
  await calculator.getByRole('button', { name: 'Register Service Calculator' }).click();
  await expect(calculator.getByText('Connected')).toBeVisible();
  await page.goto('/agents');
  await expect(rowOf(page, 'Bookkeeper').getByText('1 Tools')).toBeVisible();
  await expect(rowOf(page, 'Bookkeeper').getByText('Needs reconnecting')).toHaveCount(0);
});

test('the form marks each blank required field, explains it and focuses the first', async ({ page }) => {
  await signUpAndSignIn(page);
  await page.goto('/agents/create');
  const name = page.getByRole('textbox', { name: 'Name' });
  const description = page.getByRole('textbox', { name: 'Description' });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Name/Description Required')).toBeVisible();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(description).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toBeFocused();
  await expect(page.getByText('Give the agent a name.')).toBeVisible();
  await expect(page.getByText('Describe what the agent does.')).toBeVisible();
  await name.fill('Planner');
  await expect(name).not.toHaveAttribute('aria-invalid');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(description).toBeFocused();
  await expect(description).toHaveAttribute('aria-invalid', 'true');
});

test('an agent gets an icon and a colour, shown in the list, the editor, the chat header and the copilot', async ({
  page,
}) => {
  await signUpAndSignIn(page);
  await page.goto('/agents/create');
  await page.getByRole('textbox', { name: 'Name' }).fill('Postman');
  await page.getByRole('textbox', { name: 'Description' }).fill('Sorts the post');
  await page.getByRole('radiogroup', { name: 'Icon' }).getByTitle('Emoji 📬', { exact: true }).click();
  await page
    .getByRole('radiogroup', { name: 'Colour' })
    .getByTitle('Colour: purple', { exact: true })
    .click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Agent Created')).toBeVisible();
  const listed = rowOf(page, 'Postman').getByTestId('agent-avatar');
  await expect(listed).toHaveText('📬');
  await expectTintedIn(listed, 'purple');

  // The copilot (the first agent: this one) shows the icon in its colour in its header. Moved to
  // within the app: a full load of /copilot would sign in again (the session is held in memory).
  await page.evaluate(() => {
    window.history.pushState({}, '', '/copilot');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await page.getByRole('button', { name: 'Open the chat' }).click();
  const copilot = page.getByTestId('copilot-panel');
  await expect(copilot.getByText('Postman').first()).toBeVisible();
  const inCopilot = copilot.getByTestId('agent-avatar').first();
  await expect(inCopilot).toHaveText('📬');
  await expectTintedIn(inCopilot, 'purple');

  await page.goto('/agents');
  await openActions(page, 'Postman', 'Edit');
  await expect(page.getByRole('radio', { name: 'Emoji 📬' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Colour: purple' })).toBeChecked();
  // A generated avatar instead, drawn in shades of the agent's colour.
  await page.getByTitle('Generated avatar: beam', { exact: true }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Agent Updated')).toBeVisible();
  await expect(listed.locator('svg')).toBeVisible();
  await expectDrawnIn(listed, 'purple');

  await rowOf(page, 'Postman').getByRole('button', { name: 'Start chat with Postman' }).click();
  const frame = page.frameLocator('iframe[title="Agent chat"]');
  const inChat = frame.getByTestId('agent-avatar').first();
  await expect(inChat.locator('svg')).toBeVisible();
  await expectDrawnIn(inChat, 'purple');
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the agents list stacks as cards with the actions in a menu, and nothing scrolls sideways', async ({
    page,
  }) => {
    await signUpAndSignIn(page);
    for (const [name, description] of [
      [
        'A rather long agent name that goes on and on',
        'A description long enough to need more than one line on a phone screen, and then some more words.',
      ],
      ['Short', 'Tiny'],
    ]) {
      await page.goto('/agents/create');
      await page.getByRole('textbox', { name: 'Name' }).fill(name!);
      await page.getByRole('textbox', { name: 'Description' }).fill(description!);
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('Agent Created').first()).toBeVisible();
    }
    await expect(rows(page)).toHaveCount(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // Each card is within the screen, with its Start button, tools and menu visible without scrolling.
    for (const row of await rows(page).all()) {
      const box = (await row.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
      await expect(row.getByRole('button', { name: /^Start chat with / })).toBeInViewport();
      await expect(row.getByRole('button', { name: /^Actions for / })).toBeInViewport();
    }
    await openActions(page, 'Short', 'Edit');
    await expect(page.getByRole('heading', { name: 'Edit Short' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});
