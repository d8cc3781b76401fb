import { expect, test, type BrowserContext, type FrameLocator, type Page } from '@playwright/test';
import { createAgent, newChat, registerService, send, startAgentChat } from '../support/chat.ts';
import { signUpAndSignIn } from '../support/sign-in.ts';

/**
 * Two tabs of one browser on two agents with different tools (issue 16 item 1): each tab keeps its
 * own agent, threads and answers through interleaved turns, and each thread has its own address,
 * so reload and back/forward return to it.
 */
const CALCULATOR = 'Tab calculator';
const NOTES = 'Tab notes';

test.describe.configure({ mode: 'serial' });

let context: BrowserContext;
let tabA: Page;
let tabB: Page;

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext();
  tabA = await context.newPage();
  await signUpAndSignIn(tabA);
  await registerService(tabA, 'Calculator');
  await registerService(tabA, 'Notes');
  await createAgent(tabA, CALCULATOR, [['Calculator', 'Add']], 'Adds numbers.');
  await createAgent(tabA, NOTES, [['Notes', 'Create note']], 'Keeps notes.');
});

test.afterAll(async () => {
  await context.close();
});

const frameOf = (page: Page): FrameLocator => page.frameLocator('iframe[title="Agent chat"]');
const THREAD_URL = /\/agents\/\d+\/chat\/[0-9a-f-]{36}$/;

test('two tabs on two agents: interleaved turns are each answered by their own agent’s tools', async () => {
  const a = await startAgentChat(tabA, CALCULATOR);
  tabB = await context.newPage();
  const b = await startAgentChat(tabB, NOTES);
  await expect(b.getByText(NOTES).first()).toBeVisible();

  // Tab A was opened first; tab B's session must not take it over.
  await send(a, 'add 17 and 25');
  const sum = a.getByTestId('tool-step').last();
  await expect(sum).toHaveAttribute('data-state', 'output-available');
  await expect(sum).toContainText('Add');
  await expect(a.getByTestId('assistant-message').last()).toContainText('42');
  await expect(a.getByText(CALCULATOR).first()).toBeVisible();

  await send(b, 'note down: call the bank');
  const note = b.getByTestId('tool-step').last();
  await expect(note).toContainText('call the bank');
  await b.getByTestId('approval').last().getByRole('button', { name: 'Approve' }).click();
  await expect(note).toHaveAttribute('data-state', 'output-available');

  await send(a, 'add 1 and 2');
  await expect(a.getByTestId('tool-step')).toHaveCount(2);
  await expect(a.getByTestId('assistant-message').last()).toContainText('3');
  await expect(a.getByTestId('approval')).toHaveCount(0);

  // Each tab's first save gave its thread an address; each lists only its own agent's thread.
  await expect(tabA).toHaveURL(THREAD_URL);
  await expect(tabB).toHaveURL(THREAD_URL);
  await expect(a.getByTestId('thread-item')).toHaveCount(1);
  await expect(b.getByTestId('thread-item')).toHaveCount(1);
  await expect(a.getByTestId('tool-step').filter({ hasText: 'Create note' })).toHaveCount(0);
});

test('reload returns each tab to its own thread, without a trip to the sign-in page', async () => {
  const addressA = tabA.url();
  const idp: string[] = [];
  const onRequest = (request: { url(): string; isNavigationRequest(): boolean; frame(): unknown }) => {
    if (
      request.isNavigationRequest() &&
      request.frame() === tabA.mainFrame() &&
      request.url().includes('/idp/')
    )
      idp.push(request.url());
  };
  tabA.on('request', onRequest);
  await tabA.reload();
  const a = frameOf(tabA);
  await expect(a.getByTestId('user-message').first()).toContainText('add 17 and 25');
  await expect(a.getByTestId('assistant-message').last()).toContainText('3');
  expect(tabA.url()).toBe(addressA);
  tabA.off('request', onRequest);
  expect(idp).toEqual([]);

  await tabB.reload();
  const b = frameOf(tabB);
  await expect(b.getByTestId('user-message').first()).toContainText('note down: call the bank');
});

test('back and forward move between threads; another agent’s thread is not found', async () => {
  const a = frameOf(tabA);
  const first = tabA.url();
  await newChat(a);
  await send(a, 'add 2 and 2');
  await expect(a.getByTestId('assistant-message').last()).toContainText('4');
  await expect(tabA).toHaveURL(THREAD_URL);
  const second = tabA.url();
  expect(second).not.toBe(first);

  await tabA.goBack();
  await expect(tabA).toHaveURL(first);
  await expect(a.getByTestId('user-message').first()).toContainText('add 17 and 25');
  await tabA.goForward();
  await expect(tabA).toHaveURL(second);
  await expect(a.getByTestId('user-message').first()).toContainText('add 2 and 2');

  // Picking a thread in the list is a step of its own.
  const panel = a.getByTestId('thread-panel');
  await panel
    .getByRole('button', { name: /add 17 and 25/i })
    .first()
    .click();
  await expect(tabA).toHaveURL(first);
  await expect(a.getByTestId('user-message').first()).toContainText('add 17 and 25');
  await tabA.goBack();
  await expect(tabA).toHaveURL(second);
  await expect(a.getByTestId('user-message').first()).toContainText('add 2 and 2');

  // Tab B's thread under tab A's agent: the frame's not-found state, none of B's messages.
  const threadB = /\/chat\/([0-9a-f-]{36})$/.exec(tabB.url())![1]!;
  await tabA.goto(first.replace(/[0-9a-f-]{36}$/, threadB));
  await expect(a.getByTestId('thread-not-found')).toBeVisible();
  await expect(a.getByText('call the bank')).toHaveCount(0);
});
