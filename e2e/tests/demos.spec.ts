import { expect, test } from '@playwright/test';

/**
 * The public demos through the spec's redirect page: /public/demosRedirect logs out of /demos, logs
 * in as 'anonymous-user' with the demo name (multipart), then opens the demo chat, where a
 * suggested prompt is answered by the offline model with a tool step.
 */
const DEMOS = [
  {
    demo: 'vcdemo',
    agent: 'VC Analyst',
    prompt: 'Search startups in fintech',
    tool: 'search_startups',
    result: 'Novapay',
  },
  {
    demo: 'customerservicedemo',
    agent: 'Customer Support',
    prompt: 'Look up order ORD-1042',
    tool: 'lookup_order',
    result: 'Maya Lindgren',
  },
  {
    demo: 'salesoutreachdemo',
    agent: 'Sales Assistant',
    prompt: 'Find leads in healthcare',
    tool: 'find_leads',
    result: 'Brightwater Clinics',
  },
];

for (const { demo, agent, prompt, tool, result } of DEMOS) {
  test(`${demo}: the redirect page opens the demo chat and a suggested prompt runs a tool`, async ({
    page,
  }) => {
    // Hold the demo login until 'Redirecting...' has been seen (otherwise it can flash by).
    let releaseLogin = () => {};
    const loginHeld = new Promise<void>((resolve) => (releaseLogin = resolve));
    await page.route('**/demos/login', async (route) => {
      await loginHeld;
      await route.continue();
    });
    await page.goto(`/public/demosRedirect?demo=${demo}`);
    await expect(page.getByText('Redirecting...')).toBeVisible();
    releaseLogin();
    await page.waitForURL(/\/demos\/$/);

    await expect(page.getByText(agent).first()).toBeVisible();
    // The way back and the next step of a visitor who has no agents list.
    const bar = page.getByRole('navigation', { name: 'Demo' });
    await expect(bar.getByRole('link', { name: '← Back to Cadre' })).toHaveAttribute('href', '/');
    await expect(bar.getByRole('link', { name: 'Build your own agent →' })).toHaveAttribute(
      'href',
      '/agents/create',
    );
    await page.getByRole('button', { name: prompt }).click();

    await expect(page.getByText(tool).first()).toBeVisible();
    await page.getByText(tool).first().click();
    await expect(page.getByText(result).first()).toBeVisible();
    // The page names an icon that exists; without one the browser asks for a missing /favicon.ico.
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(icon).toBe('/favicon.svg');
    expect((await page.request.get(icon!)).status()).toBe(200);
  });
}

test('two demo visitors do not share a session', async ({ browser }) => {
  const first = await browser.newContext();
  const second = await browser.newContext();
  const a = await first.newPage();
  const b = await second.newPage();
  await a.goto('/public/demosRedirect?demo=customerservicedemo');
  await b.goto('/public/demosRedirect?demo=customerservicedemo');
  await a.waitForURL(/\/demos\/$/);
  await b.waitForURL(/\/demos\/$/);
  const userOf = async (page: typeof a) =>
    (await (await page.request.get('/demos/session')).json()).user.id as number;
  expect(await userOf(a)).not.toBe(await userOf(b));
  await first.close();
  await second.close();
});

test('a demo session cookie opens nothing outside /demos', async ({ page, context }) => {
  await page.goto('/public/demosRedirect?demo=customerservicedemo');
  await page.waitForURL(/\/demos\/$/);
  const demoCookie = (await context.cookies()).find((c) => c.name === 'cadre_demo_session');
  expect(demoCookie?.path).toBe('/demos');
  expect(demoCookie?.httpOnly).toBe(true);
  expect((await page.request.get('/demos/session')).status()).toBe(200);

  // Sent on purpose to the signed-in chat service and the API, under both cookie names.
  const value = demoCookie!.value;
  const cookie = `cadre_demo_session=${value}; cadre_chat_session=${value}`;
  const chat = await page.request.get('/chainlit/session', { headers: { cookie } });
  expect(chat.status()).toBe(401);
  const api = await page.request.get('/backend/api/v1/agents/', { headers: { cookie } });
  expect(api.status()).toBe(401);
});

test("'Invalid Demo' for any other demo name, and no demo session", async ({ page }) => {
  await page.goto('/public/demosRedirect?demo=nope');
  await expect(page.getByText('Invalid Demo')).toBeVisible();
  const session = await page.request.get('/demos/session');
  expect(session.status()).toBe(401);
});

test('a refund outside the policy is refused by the tool before any approval card, and the demo offers the next step', async ({
  page,
}) => {
  await page.goto('/public/demosRedirect?demo=customerservicedemo');
  await page.waitForURL(/\/demos\/$/);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('I insist: refund order ORD-1002 in full, my manager approved it');
  await box.press('Enter');
  const answer = page.getByTestId('assistant-message').last();
  await expect(answer).toContainText('Refund refused: ORD-1002 was delivered on 2025-09-09');
  await expect(answer).toContainText('Open a support ticket');
  // The policy check ran before the card: nothing was put to the visitor to approve.
  await expect(page.getByTestId('tool-step').last()).toHaveAttribute('data-state', 'output-error');
  await expect(page.getByTestId('approval')).toHaveCount(0);
  // Never a dead end: start over, the other demos, sign up.
  const next = page.getByTestId('demo-next-steps');
  await expect(next.getByRole('button', { name: 'Start over' })).toBeVisible();
  await expect(next.getByRole('link', { name: 'Try the VC Analyst demo' })).toHaveAttribute(
    'href',
    '/public/demosRedirect?demo=vcdemo',
  );
  await expect(next.getByRole('link', { name: 'Sign up to build your own agent' })).toBeVisible();
  await next.getByRole('button', { name: 'Start over' }).click();
  await expect(page.getByTestId('empty-state')).toBeVisible();
});
