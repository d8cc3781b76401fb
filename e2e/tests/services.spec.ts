import { expect, test, type Page } from '@playwright/test';
import { signUpAndSignIn } from '../support/sign-in.ts';

const card = (page: Page, name: string) => page.getByRole('listitem', { name, exact: true });

test('registers the no-auth Calculator and an API-key service, views tools, and disconnects', async ({
  page,
}) => {
  await signUpAndSignIn(page);
  await page.getByRole('link', { name: 'Services' }).first().click();
  await expect(page).toHaveURL(/\/services\/?$/);
  await expect(page.getByRole('heading', { name: 'Services', level: 1 })).toBeVisible();

  // The no-auth Calculator: one click, the success toast, ACTIVE and listed first.
  const calculator = card(page, 'Calculator');
  await expect(calculator.getByText('Status: INACTIVE | Auth: NO_AUTH')).toBeVisible();
  await calculator.getByRole('button', { name: 'Register Service Calculator' }).click();
  await expect(page.getByText('Service Registered Successfully').first()).toBeVisible();
  await expect(calculator.getByText('Status: ACTIVE | Auth: NO_AUTH')).toBeVisible();
  await expect(page.getByTestId('service-card').first()).toHaveAccessibleName('Calculator');

  // Its tools: the table with Name and Description, searchable.
  await calculator.getByRole('link', { name: 'View Tools of Calculator' }).click();
  await expect(page).toHaveURL(/\/services\/\d+\/actions$/);
  const table = page.getByRole('table');
  await expect(table.getByRole('columnheader', { name: 'Name' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Description' })).toBeVisible();
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  expect(await table.getByRole('row').count()).toBeGreaterThan(1);
  await page.getByPlaceholder('Search tools...').fill('zzzz-no-such-tool');
  await expect(table.getByText('No tools match your search.')).toBeVisible();

  // An API-key service through the 'Enter API Key' dialog: the key is checked with the provider
  // (a local stub of Brave Search that accepts this one) before it is saved.
  await page.goto('/services');
  const search = card(page, 'Web Search');
  await search.getByRole('button', { name: 'Register Service Web Search' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enter API Key' });
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('API Key Required').first()).toBeVisible();
  await dialog.getByLabel('API Key for Web Search').fill('  e2e-brave-key-123  ');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toBeHidden();
  await expect(search.getByText('Status: ACTIVE | Auth: API_KEY')).toBeVisible();
  await search.getByRole('link', { name: 'View Tools of Web Search' }).click();
  await expect(page.getByRole('cell', { name: 'Search the web', exact: true })).toBeVisible();

  // Disconnect both, each after its question (no agent uses them). While the pointer stays over the
  // grid the cards keep their places: Calculator, now inactive, is still first.
  await page.goto('/services');
  await card(page, 'Calculator').getByRole('button', { name: 'Disconnect Service Calculator' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Disconnect Calculator?' });
  await expect(confirm.getByText('No agent uses it.')).toBeVisible();
  await confirm.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByText('Service Disconnected').first()).toBeVisible();
  await expect(card(page, 'Calculator').getByText('Status: INACTIVE | Auth: NO_AUTH')).toBeVisible();
  await expect(page.getByTestId('service-card').first()).toHaveAccessibleName('Calculator');
  await card(page, 'Web Search').getByRole('button', { name: 'Disconnect Service Web Search' }).click();
  await page
    .getByRole('alertdialog', { name: 'Disconnect Web Search?' })
    .getByRole('button', { name: 'Disconnect' })
    .click();
  await expect(card(page, 'Web Search').getByText('Status: INACTIVE | Auth: API_KEY')).toBeVisible();
});

test('a key the provider refuses keeps the dialog open with the refusal, and nothing is saved', async ({
  page,
}) => {
  await signUpAndSignIn(page);
  await page.goto('/services');
  const search = card(page, 'Web Search');
  await search.getByRole('button', { name: 'Register Service Web Search' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enter API Key' });
  const input = dialog.getByLabel('API Key for Web Search');
  await input.fill('e2e-wrong-key');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  // The stub answered 401: the refusal is under the field, the dialog stays, the spec's toast shows.
  await expect(input).toHaveAccessibleErrorMessage('Brave Search refused this API key (401)');
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Failed to register Web Search by API key.').first()).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(search.getByText('Status: INACTIVE | Auth: API_KEY')).toBeVisible();
  await expect(search.getByTestId('connection-usage')).toHaveCount(0);
  // Nothing was saved: after a reload the service is still not connected.
  await page.reload();
  await expect(card(page, 'Web Search').getByText('Status: INACTIVE | Auth: API_KEY')).toBeVisible();

  // The accepted key connects, and the card says it was never used yet.
  await card(page, 'Web Search').getByRole('button', { name: 'Register Service Web Search' }).click();
  await dialog.getByLabel('API Key for Web Search').fill('e2e-brave-key-123');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toBeHidden();
  await expect(card(page, 'Web Search').getByText('Status: ACTIVE | Auth: API_KEY')).toBeVisible();
  await expect(card(page, 'Web Search').getByText('Never used')).toBeVisible();
});

test('the "Add your own MCP server" dialog shows the API’s refusal under the URL', async ({ page }) => {
  await signUpAndSignIn(page);
  await page.goto('/services');
  await page.getByRole('button', { name: 'Add your own MCP server' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add your own MCP server' });
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Local');
  // The egress guard refuses private addresses: the API's reason is shown under the URL, which
  // is marked and focused; the dialog stays.
  const url = dialog.getByLabel('Server URL (https)');
  await url.fill('http://127.0.0.1:9/mcp');
  await dialog.getByRole('button', { name: 'Add Server' }).click();
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  await expect(url).toHaveAccessibleErrorMessage(/The address 127\.0\.0\.1 is not allowed/);
  await expect(url).toBeFocused();
  await expect(dialog.getByRole('textbox', { name: 'Name', exact: true })).not.toHaveAttribute(
    'aria-invalid',
  );
  await expect(dialog.getByText(/^url:/)).toHaveCount(0);
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(card(page, 'Local')).toHaveCount(0);
});

test('the tools of an MCP server with 500 tools are searched in a worker, off the page’s thread', async ({
  page,
}) => {
  await signUpAndSignIn(page);
  await page.goto('/services');
  await page.getByRole('button', { name: 'Add your own MCP server' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add your own MCP server' });
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Reports');
  // The local stub's MCP server (support/stub-provider.ts), the one private address the server may reach.
  await dialog.getByLabel('Server URL (https)').fill(`http://127.0.0.2:${process.env.E2E_STUB_PORT}/mcp`);
  await dialog.getByRole('button', { name: 'Add Server' }).click();
  await expect(dialog).toBeHidden();

  // The list is indexed in a worker as soon as it is shown; the page's CSP lets our own worker run.
  const worker = page.waitForEvent('worker');
  await card(page, 'Reports').getByRole('link', { name: 'View Tools of Reports' }).click();
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(501);
  expect((await worker).url()).toMatch(/\/assets\/fuzzy-worker-[\w-]+\.js$/);

  // Its answers: the exact name first, near misses after it (other invoices), the rest filtered out.
  await page.getByPlaceholder('Search tools...').fill('invoice_436');
  await expect(rows.nth(1)).toHaveText(/^Invoice 436/);
  await expect.poll(() => rows.count()).toBeLessThan(501);
  await expect(rows.filter({ hasText: /^Report / })).toHaveCount(0);
  await page.getByPlaceholder('Search tools...').fill('');
  await expect(rows).toHaveCount(501);
});
