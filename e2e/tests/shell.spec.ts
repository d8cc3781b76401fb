import { expect, test } from '@playwright/test';

test('an unknown path shows the 404 screen with a way back', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: '404' })).toBeVisible();
  await expect(page.getByText('Oops!')).toBeVisible();
  await expect(page.getByText('Page not found.')).toBeVisible();
  const back = page.getByRole('link', { name: 'Go back' });
  await expect(back).toHaveAttribute('href', '/');
});

test('an invalid runtime configuration shows a screen naming the bad fields', async ({ page }) => {
  await page.route('**/runtime-config.json', async (route) => {
    const response = await route.fetch();
    const config = await response.json();
    delete config.apiUrl;
    config.isProduction = 'yes';
    config.surprise = true;
    await route.fulfill({ response, json: config });
  });
  await page.goto('/');
  const problems = page.getByTestId('config-problems');
  await expect(page.getByRole('heading', { name: 'Cadre cannot start' })).toBeVisible();
  await expect(problems).toContainText('apiUrl');
  await expect(problems).toContainText('isProduction');
  await expect(problems).toContainText('unknown field: surprise');
});

test('the server answers the health check and API errors as JSON', async ({ request }) => {
  const health = await request.get('/backend/api/v1/public/health/healthcheck');
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: 'ok', database: 'ok' });
  const missing = await request.get('/backend/api/v1/no-such-route');
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toEqual({ detail: 'Not Found', code: 'not_found' });
});

test('the chat frame’s hashed assets are cached for good; its page and API are not', async ({ request }) => {
  const page = await request.get('/chainlit/', { headers: { accept: 'text/html' } });
  expect(page.status()).toBe(200);
  expect(page.headers()['cache-control']).toBe('no-cache');
  const script = /src="(\/chainlit\/assets\/[^"]+\.js)"/.exec(await page.text())?.[1];
  expect(script).toBeDefined();
  const asset = await request.get(script!);
  expect(asset.status()).toBe(200);
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  const api = await request.get('/chainlit/session');
  expect(api.headers()['cache-control']).toBe('no-store');
});
