import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { pickMenuItem } from '../support/menus.ts';
import { signUpAndSignIn } from '../support/sign-in.ts';

/**
 * Agent versions and export/import (issue 20, items 3 and 4) through the real server: the editor's
 * history compares two versions and restores one; an exported agent is imported by another person,
 * who is told which service to connect.
 */

test('the editor shows the history, compares two versions and restores one', async ({ page }) => {
  await signUpAndSignIn(page);
  await page.goto('/agents/create');
  await page.getByRole('textbox', { name: 'Name' }).fill('Versioned Helper');
  await page.getByRole('textbox', { name: 'Description' }).fill('First description');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/agents\/?$/);

  await pickMenuItem(
    page,
    page.getByRole('button', { name: 'Actions for Versioned Helper', exact: true }),
    'Edit',
  );
  await page.getByRole('textbox', { name: 'Description' }).fill('Second description');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Agent Updated')).toBeVisible();
  await expect(page).toHaveURL(/\/agents\/?$/);

  await pickMenuItem(
    page,
    page.getByRole('button', { name: 'Actions for Versioned Helper', exact: true }),
    'Edit',
  );
  await page
    .getByRole('navigation', { name: 'Agent sections' })
    .getByRole('link', { name: 'History' })
    .click();
  const versions = page.getByRole('list', { name: 'Saved versions' }).getByTestId('agent-version');
  await expect(versions).toHaveCount(2);
  await expect(versions.first()).toContainText('Version 2');
  // The sign-in's name where it gave one, else the reader's own save.
  await expect(versions.first()).toContainText(/E2E Person|You/);
  const diff = page.getByRole('table', { name: 'Differences' });
  await expect(diff.getByRole('row').nth(1)).toHaveText(/DescriptionFirst descriptionSecond description/);

  await page.getByRole('button', { name: 'Restore version 1' }).click();
  await page
    .getByRole('alertdialog', { name: 'Restore version 1?' })
    .getByRole('button', { name: 'Restore' })
    .click();
  await expect(page.getByText('Version 1 restored')).toBeVisible();
  await expect(versions).toHaveCount(3);
  await expect(versions.first()).toContainText('Restored from version 1');
  const sections = page.getByRole('navigation', { name: 'Agent sections' });
  await sections.getByRole('link', { name: 'Configure' }).click();
  await expect(page.getByRole('textbox', { name: 'Description' })).toHaveValue('First description');

  // Stored: a reload shows the restored agent and its three versions.
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Description' })).toHaveValue('First description');
  await sections.getByRole('link', { name: 'History' }).click();
  await expect(versions).toHaveCount(3);
});

test('an exported agent is imported by another person, who is told what to connect', async ({
  page,
  browser,
}) => {
  await signUpAndSignIn(page);
  await page.goto('/services');
  const calculator = page.getByTestId('service-card').filter({ hasText: 'Calculator' });
  await calculator.getByRole('button', { name: 'Register Service Calculator' }).click();
  await expect(calculator.getByRole('button', { name: 'Disconnect Service Calculator' })).toBeVisible();

  await page.goto('/agents/create');
  await page.getByRole('button', { name: 'Calculator' }).click();
  const picker = page.getByRole('dialog', { name: 'Actions for Calculator' });
  await picker.getByRole('button', { name: 'Add Multiply' }).click();
  await picker.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('Portable Bookkeeper');
  await page.getByRole('textbox', { name: 'Description' }).fill('Does sums anywhere');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/agents\/?$/);

  const downloading = page.waitForEvent('download');
  await pickMenuItem(
    page,
    page.getByRole('button', { name: 'Actions for Portable Bookkeeper', exact: true }),
    'Export',
  );
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('Portable-Bookkeeper.agent.json');
  const file = await download.path();
  const document = JSON.parse(fs.readFileSync(file, 'utf8'));
  expect(document).toMatchObject({
    format: 'cadre.agent',
    format_version: 1,
    agent: {
      name: 'Portable Bookkeeper',
      tools: [{ provider: 'builtin', service_key: 'calculator', tool_name: 'multiply' }],
    },
  });

  // Another person, who has not registered Calculator.
  const other = await browser.newContext();
  const theirs = await other.newPage();
  await signUpAndSignIn(theirs);
  await theirs.goto('/agents');
  await expect(theirs.getByText('No agents found.')).toBeVisible();
  await theirs.getByLabel('Choose an exported agent file (.json)').setInputFiles(file);
  const result = theirs.getByRole('dialog', { name: 'Imported Portable Bookkeeper' });
  await expect(result.getByRole('list', { name: 'Tools to connect' })).toHaveText('Multiply (Calculator)');
  await result.getByRole('link', { name: 'Open agent' }).click();
  await expect(theirs).toHaveURL(/\/agents\/\d+\/edit$/);
  await expect(theirs.getByRole('textbox', { name: 'Description' })).toHaveValue('Does sums anywhere');
  await expect(theirs.getByTestId('selected-tools').getByText('Multiply')).toBeVisible();
  await expect(theirs.getByTestId('agent-version').first()).toContainText('Imported');
  await other.close();
});
