import { expect, test } from '@playwright/test';
import { createApiKey } from '../support/api-keys.ts';
import { pickMenuItem } from '../support/menus.ts';
import { signUpAndSignIn } from '../support/sign-in.ts';

/** An API key made on its screen works from code at once, within its scope, until it is revoked. */
test('creates an API key, uses it with fetch, and revokes it', async ({ page, baseURL }) => {
  await signUpAndSignIn(page);
  await pickMenuItem(page, page.getByRole('button', { name: 'Account menu of E2E Person' }), 'API keys');
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await expect(page.getByText('You have no API keys.')).toBeVisible();

  const key = await createApiKey(page, 'Script', 'agents:read');
  expect(key).toMatch(/^cadre_[A-Za-z0-9_-]{43}$/);

  const agents = `${baseURL}/backend/api/v1/agents/`;
  const withKey = { authorization: `Bearer ${key}` };
  const list = await fetch(agents, { headers: withKey });
  expect(list.status).toBe(200);
  expect(await list.json()).toEqual([]);
  const create = await fetch(agents, {
    method: 'POST',
    headers: { ...withKey, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'x', description: 'y' }),
  });
  expect(create.status).toBe(403);

  const row = page.getByRole('row', { name: 'Script' });
  await expect(row).toContainText('agents:read');
  await expect(page.getByText(key)).toHaveCount(0);
  await row.getByRole('button', { name: 'Revoke Script' }).click();
  await page
    .getByRole('alertdialog', { name: 'Revoke API key' })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await expect(page.getByText('You have no API keys.')).toBeVisible();
  expect((await fetch(agents, { headers: withKey })).status).toBe(401);
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('each key is a card with its values labelled and Revoke in view; nothing scrolls sideways', async ({
    page,
  }) => {
    await signUpAndSignIn(page);
    await page.goto('/api-keys');
    await createApiKey(page, 'A key with a rather long name for a phone', 'chat');

    const card = page.getByRole('row', { name: 'A key with a rather long name for a phone' });
    await expect(card).toBeVisible();
    // The header row is hidden: each value says what it is.
    await expect(page.getByRole('columnheader', { name: 'Last used' })).toBeHidden();
    await expect(card.getByText('Last used:')).toBeVisible();
    await expect(card.getByText('Scopes:')).toBeVisible();
    const revoke = card.getByRole('button', { name: 'Revoke A key with a rather long name for a phone' });
    await expect(revoke).toBeInViewport({ ratio: 1 });
    const box = (await card.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});
