import { expect, test, type BrowserContext, type Page, type Response } from '@playwright/test';
import { createAgent, newChat, registerService, send, startAgentChat } from '../support/chat.ts';
import { signUpAndSignIn } from '../support/sign-in.ts';

/**
 * The chat end to end, on the built-in offline model, set up the way a person does it: access code,
 * sign-up at the built-in provider, Calculator and Notes registered on /services, an agent created
 * on /agents/create with Add and Create note, and Start. The chat frame is the iframe of
 * /agents/:id/chat. Screenshots go to `E2E_SCREENSHOT_DIR` when set.
 */
const shots = process.env.E2E_SCREENSHOT_DIR;
const AGENT = 'E2E chat agent';

test.describe.configure({ mode: 'serial' });

let context: BrowserContext;
let page: Page;
/** Every dialog any frame opened (D2: none may). */
const dialogs: string[] = [];
/** Console lines about the Content Security Policy (D2: none may). */
const cspMessages: string[] = [];

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext();
  // Counts CSP violations in every frame, including the chat iframe.
  await context.addInitScript(() => {
    const w = window as unknown as { __cspViolations?: string[] };
    w.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      w.__cspViolations!.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  page = await context.newPage();
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text()))
      cspMessages.push(message.text());
  });
  await signUpAndSignIn(page);
  await registerService(page, 'Calculator');
  await registerService(page, 'Notes');
  await createAgent(page, AGENT, [
    ['Calculator', 'Add'],
    ['Notes', 'Create note'],
  ]);
});

test.afterAll(async () => {
  await context.close();
});

/** /agents → Start: the chat frame of the test's agent. */
const startChat = (page: Page, name = AGENT) => startAgentChat(page, name);

test('adds two numbers with Calculator: streamed answer and an expandable tool step; the thread survives a reload', async () => {
  const frame = await startChat(page);
  await newChat(frame);
  await expect(frame.getByTestId('offline-label')).toHaveText('Offline model');
  await expect(frame.getByTestId('offline-notice')).toHaveText(
    'Offline model — configure an LLM provider for full answers',
  );
  await send(frame, 'add 12 and 30');
  const step = frame.getByTestId('tool-step').first();
  await expect(step).toBeVisible();
  await expect(step).toContainText('Add');
  await expect(step).toHaveAttribute('data-state', 'output-available');
  // The offline model reports the tool's result: 12 + 30.
  await expect(frame.getByTestId('assistant-message').last()).toContainText('42');
  await step.getByRole('button').first().click();
  await expect(step).toContainText('Arguments');
  await expect(step).toContainText('12');
  await expect(step).toContainText('30');
  if (shots) await page.screenshot({ path: `${shots}/chat-calculator.png`, fullPage: true });

  await page.reload();
  const again = page.frameLocator('iframe[title="Agent chat"]');
  await expect(again.getByTestId('user-message').first()).toContainText('add 12 and 30');
  await expect(again.getByTestId('tool-step').first()).toBeVisible();
  await expect(again.getByTestId('assistant-message').last()).toContainText('42');
});

test('a Notes write asks for approval: Deny, then Approve on a second request', async () => {
  const frame = await startChat(page);
  await newChat(frame);
  await send(frame, 'create note title: "Groceries" body: "milk and eggs"');
  const approval = frame.getByTestId('approval').first();
  await expect(approval).toBeVisible();
  await expect(frame.getByTestId('tool-step').first()).toContainText('Groceries');
  if (shots) await page.screenshot({ path: `${shots}/chat-approval.png`, fullPage: true });
  await approval.getByRole('button', { name: 'Deny' }).click();
  await expect(frame.getByTestId('tool-step').first()).toHaveAttribute('data-state', 'output-denied');
  await expect(frame.getByTestId('assistant-message').last()).toContainText('denied');

  await send(frame, 'create note title: "Groceries" body: "bread"');
  const second = frame.getByTestId('approval').first();
  await expect(second).toBeVisible();
  await second.getByRole('button', { name: 'Approve' }).click();
  await expect(frame.getByTestId('tool-step').last()).toHaveAttribute('data-state', 'output-available');
  await expect(frame.getByTestId('approval')).toHaveCount(0);
  // Said as a person would: the note's title, not the tool's output.
  await expect(frame.getByTestId('assistant-message').last()).toContainText('Noted: Groceries.');
});

test('the copilot page answers a function call from the chat', async () => {
  // Within the signed-in app (the session is held in memory; a full load of /copilot would ask
  // to sign in again and come back to /info): the router moves to /copilot.
  await page.goto('/info');
  await expect(page.getByRole('button', { name: 'Log Out' })).toBeVisible();
  await page.evaluate(() => {
    window.history.pushState({}, '', '/copilot');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page.getByRole('heading', { name: 'Copilot' })).toBeVisible();
  await page.getByRole('button', { name: 'Open the chat' }).click();
  const prompt = page.getByRole('button', { name: 'Call the host function "get_page_title"' });
  await expect(prompt).toBeVisible();
  await prompt.click();
  // The page's `chainlit-call-fn` listener answers with a simulated message; the model reports it.
  await expect(
    page.getByText('Simulated answer from the host page: the function "get_page_title" ran with {}'),
  ).toBeVisible();
  if (shots) await page.screenshot({ path: `${shots}/copilot-function.png`, fullPage: true });
});

const PAYLOADS = [
  '<img src=x onerror="window.__xss=1;alert(1)">',
  '<svg><script>window.__xss=1;alert(1)</script></svg>',
  '<iframe srcdoc="<script>parent.__xss=1;alert(1)</script>"></iframe>',
  '<a href="javascript:window.__xss=1">html link</a>',
  '[md link](javascript:window.__xss=1)',
  '[data link](data:text/html,<script>alert(1)</script>)',
  '![data image](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+)',
  '<style>body{display:none}</style><form action="https://evil.example"><button>go</button></form>',
];

test('D2: a conversation full of XSS payloads runs no script, opens no dialog and breaks no CSP rule', async () => {
  const frame = await startChat(page);
  await newChat(frame);
  // In the user's messages, and echoed back by a tool's output in the assistant's answer.
  // The offline model answers the bare payloads with what it can do (no tool for them).
  await send(frame, PAYLOADS.join('\n\n'));
  await expect(frame.getByTestId('assistant-message').last()).toContainText("I can't do that");
  await expect(frame.getByTestId('approval')).toHaveCount(0);
  // The answer has finished streaming (a busy composer does not send).
  await expect(frame.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  // A Create note call carries them as its arguments; it is approved and its output (the note) is shown.
  await send(frame, `create note title: "xss" body: "${PAYLOADS.slice(0, 4).join(' ')}"`);
  await expect(frame.getByTestId('tool-step')).toHaveCount(1);
  await expect(frame.getByTestId('tool-step').last()).toContainText('"body": "<img');
  await frame.getByTestId('approval').last().getByRole('button', { name: 'Approve' }).click();
  await expect(frame.getByTestId('tool-step').last()).toHaveAttribute('data-state', 'output-available');
  await expect(frame.getByTestId('assistant-message').last()).toContainText('Noted: xss.');
  // The tags in the tool step (its arguments and its output, the note) are shown as text, not as elements.
  const step = frame.getByTestId('tool-step').last();
  await step.locator('button[aria-expanded="false"]').first().click();
  await expect(step).toContainText(/Result[^]*"body": "<img/);

  // Reloaded from storage as well.
  await page.reload();
  const again = page.frameLocator('iframe[title="Agent chat"]');
  await expect(again.getByTestId('user-message').first()).toContainText('md link');
  const chat = page.frames().find((f) => f.url().includes('/chainlit'))!;
  expect(await chat.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  // No active content inside the rendered messages (the page's own module scripts are outside them).
  const messages = chat.locator('[data-testid="user-message"], [data-testid="assistant-message"]');
  expect(await messages.count()).toBeGreaterThanOrEqual(4);
  expect(await messages.locator('script, iframe, object, embed, form, style, svg script').count()).toBe(0);
  expect(await messages.locator('[href^="javascript:"], [href^="data:"], [src^="data:"]').count()).toBe(0);
  expect(await messages.locator('[onerror], [onload], [onclick]').count()).toBe(0);
  const violations = [
    ...(await chat.evaluate(
      () => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? ['not recorded'],
    )),
    ...(await page.evaluate(
      () => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? ['not recorded'],
    )),
  ];
  expect(violations).toEqual([]);
  expect(cspMessages).toEqual([]);
  expect(dialogs).toEqual([]);
});

test('the empty chat offers a request per tool; the owner’s starters replace them; Copy copies a whole answer', async () => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const frame = await startChat(page);
  await newChat(frame);
  const empty = frame.getByTestId('empty-state');
  // Requests a person would type, never tool descriptions.
  await expect(empty.getByRole('button', { name: 'Add 9 and 33' })).toBeVisible();
  await expect(empty.getByRole('button', { name: 'Note down: call the bank' })).toBeVisible();
  await expect(empty).not.toContainText('Add two numbers');
  await empty.getByRole('button', { name: 'Add 9 and 33' }).click();
  const answer = frame.getByTestId('assistant-message').last();
  await expect(answer).toContainText('42');
  await expect(answer.getByTestId('answer-meta')).toContainText('Offline model');
  await answer.getByRole('button', { name: 'Copy answer' }).click();
  await expect(answer.getByRole('button', { name: 'Copy answer' })).toHaveText('Copied');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('42');

  const agentId = /\/agents\/(\d+)\/chat/.exec(page.url())![1];
  await page.goto(`/agents/${agentId}/edit`);
  await page.getByRole('textbox', { name: 'Starter 1' }).fill('What is 12 + 30?');
  await page.getByRole('textbox', { name: 'Starter 2' }).fill('x'.repeat(121));
  await expect(page.getByText('A starter must be at most 120 characters.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Starter 2' }).fill('Note down: buy milk');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/agents\/?$/);
  const again = await startChat(page);
  await newChat(again);
  const starters = again.getByTestId('empty-state').getByRole('button');
  await expect(starters).toHaveText(['What is 12 + 30?', 'Note down: buy milk']);
  await starters.first().click();
  await expect(again.getByTestId('assistant-message').last()).toContainText('42');
});

test('a thread longer than a page opens at its newest messages and loads the earlier ones on scrolling up', async () => {
  // Each turn of the offline model streams for about a second.
  test.setTimeout(120_000);
  const frame = await startChat(page);
  await expect(frame.getByRole('button', { name: 'New chat' }).first()).toBeAttached();
  const agentId = /\/agents\/(\d+)\/chat/.exec(page.url())![1]!;
  // 26 turns through the chat service over HTTP, with the frame's own session: 52 messages, more
  // than the 50 a page holds.
  const threadId = crypto.randomUUID();
  const turns = 26; // more turns a minute than the default allows: see playwright.config.ts
  for (let turn = 1; turn <= turns; turn++) {
    const answer = await context.request.post('/chainlit/chat', {
      // The frame's cookie session takes a write from its own origin with its own header only.
      headers: {
        origin: new URL(page.url()).origin,
        'x-requested-with': 'cadre-chat',
        'x-agent-id': agentId,
      },
      data: { threadId, text: `paging turn ${turn}` },
    });
    expect(answer.status()).toBe(200);
    await answer.body();
  }

  await page.goto(`/agents/${agentId}/chat/${threadId}`);
  const chat = page.frameLocator('iframe[title="Agent chat"]');
  const asked = chat.getByTestId('user-message');
  await expect(asked.last()).toContainText(`paging turn ${turns}`);
  // The newest 50 messages: turns 2 to 26, the first not yet.
  await expect(asked).toHaveCount(25);
  await expect(asked.first()).toContainText('paging turn 2');
  const earlier = chat.getByTestId('earlier-messages');
  await expect(earlier.getByRole('button', { name: 'Load earlier messages' })).toBeVisible();

  // Scrolling up to the top of the conversation brings the earlier turns in above.
  await asked.first().scrollIntoViewIfNeeded();
  await expect(asked).toHaveCount(turns);
  await expect(asked.first()).toContainText('paging turn 1');
  await expect(earlier).toHaveCount(0);
  // The turn that was the first shown is still in view: the earlier ones went above it.
  await expect(asked.nth(1)).toBeInViewport();
});

test('A4: opening a chat drops the old frame session without a 403, and Log Out ends the chat session', async () => {
  const logouts: number[] = [];
  const onResponse = (response: Response) => {
    if (response.url().endsWith('/chainlit/logout')) logouts.push(response.status());
  };
  page.on('response', onResponse);
  await startChat(page);
  // The frame's session works in this browser before sign-out.
  expect((await context.request.get('/chainlit/threads')).status()).toBe(200);

  await page.getByRole('button', { name: 'Log Out' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  page.off('response', onResponse);

  // The chat open's logout and the sign-out's logout were both accepted.
  expect(logouts.length).toBeGreaterThanOrEqual(2);
  expect(logouts.every((status) => status === 200)).toBe(true);
  // The same browser no longer reaches the previous user's threads through the frame's cookie.
  expect((await context.request.get('/chainlit/threads')).status()).toBe(401);
  expect((await context.request.get('/chainlit/session')).status()).toBe(401);
});
