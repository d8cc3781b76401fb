import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatEndpoint } from '../lib/endpoint';
import { CHAT_PAGE_SIZE } from '../lib/api';
import { installFakeServer, json, session, sse, storedExchange, threadRow } from '../test/fake-server';
import { renderUi } from '../test/render';
import { ChatApp } from './chat-app';

const endpoint: ChatEndpoint = {
  baseUrl: '/chainlit',
  servicesUrl: 'https://cadre.example/services',
  linkTarget: '_top',
};

const answer = (threadId: string, text: string, finish: Record<string, unknown> = { status: 'complete' }) => [
  { type: 'start', messageId: 'a-1', messageMetadata: { threadId, runId: 'r-1', offline: true } },
  { type: 'start-step' },
  { type: 'text-start', id: 't1' },
  ...text.split(' ').map((w, i) => ({ type: 'text-delta', id: 't1', delta: i ? ` ${w}` : w })),
  { type: 'text-end', id: 't1' },
  { type: 'finish-step' },
  { type: 'finish', messageMetadata: finish },
];

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('ChatApp', () => {
  it('shows the empty state with the agent and its prompts; a prompt is sent and the answer streams in', async () => {
    const { requests } = installFakeServer({
      'GET /chainlit/session': () => json(session()),
      'GET /chainlit/threads': () => json({ data: [] }),
      'POST /chainlit/chat': (r) => sse(answer((r.body as { id: string }).id, 'The sum of 2 and 3 is 5.')),
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" storage={sessionStorage} />);
    const empty = await screen.findByTestId('empty-state');
    expect(empty).toHaveTextContent('Ledger Helper');
    expect(empty).toHaveTextContent('Adds up numbers and keeps notes.');
    // The header says it briefly (the whole sentence on hover); the empty chat explains it.
    expect(screen.getByTestId('offline-label')).toHaveTextContent(/^Offline model$/);
    expect(screen.getByTestId('offline-label')).toHaveAttribute(
      'title',
      'Offline model — configure an LLM provider for full answers',
    );
    expect(screen.getByTestId('offline-notice')).toHaveTextContent(
      'Offline model — configure an LLM provider for full answers',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Add 2 and 3' }));
    expect(await screen.findByText('The sum of 2 and 3 is 5.')).toBeInTheDocument();
    const chat = requests.find((r) => r.url === '/chainlit/chat')!;
    expect(chat.headers['x-requested-with']).toBe('cadre-chat');
    const body = chat.body as {
      id: string;
      trigger: string;
      messages: { id: string; role: string; parts: unknown[] }[];
    };
    expect(body.trigger).toBe('submit-message');
    expect(body.messages).toHaveLength(1);
    expect(body.messages[0]!.parts).toEqual([{ type: 'text', text: 'Add 2 and 3' }]);
    // Keyed by the message's own id: a proxy's retry of this request is not stored twice.
    expect(chat.headers['idempotency-key']).toBe(`message-${body.messages[0]!.id}`);
    expect(sessionStorage.getItem('cadre-chat:frame:last-thread:7')).toBe(body.id);
  });

  it.each(['frame', 'copilot'] as const)(
    "shows the agent's icon in the header and the empty state (%s)",
    async (variant) => {
      const withLook = session();
      withLook.agent = { ...withLook.agent, icon: '🧮', color: 'purple' };
      installFakeServer({
        'GET /chainlit/session': () => json(withLook),
        'GET /chainlit/threads': () => json({ data: [] }),
      });
      renderUi(<ChatApp endpoint={endpoint} variant={variant} storage={sessionStorage} />);
      const empty = await screen.findByTestId('empty-state');
      const avatars = screen.getAllByTestId('agent-avatar');
      expect(avatars).toHaveLength(2);
      expect(within(empty).getByTestId('agent-avatar')).toHaveTextContent('🧮');
      expect(avatars.every((avatar) => avatar.getAttribute('aria-hidden') === 'true')).toBe(true);
    },
  );

  it('says the session has ended when the session answers 401', async () => {
    installFakeServer({
      'GET /chainlit/session': () => json({ detail: 'Not signed in to the chat', code: 'unauthorized' }, 401),
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" />);
    expect(await screen.findByText('Your chat session has ended — reopen the agent')).toBeInTheDocument();
  });

  it('in a demo, shows the way back to Cadre and the next step above the chat', async () => {
    const demoEndpoint: ChatEndpoint = { ...endpoint, baseUrl: '/demos' };
    installFakeServer({
      'GET /demos/session': () => json(session()),
      'GET /demos/threads': () => json({ data: [] }),
    });
    renderUi(<ChatApp endpoint={demoEndpoint} variant="frame" demo />);
    const bar = await screen.findByRole('navigation', { name: 'Demo' });
    expect(within(bar).getByRole('link', { name: '← Back to Cadre' })).toHaveAttribute('href', '/');
    expect(within(bar).getByRole('link', { name: 'Build your own agent →' })).toHaveAttribute(
      'href',
      '/agents/create',
    );
    expect(await screen.findByTestId('empty-state')).toBeInTheDocument();
  });

  it('when a demo session has ended, offers the demos again and the way back', async () => {
    installFakeServer({
      'GET /demos/session': () => json({ detail: 'Not signed in to the demo', code: 'unauthorized' }, 401),
    });
    renderUi(<ChatApp endpoint={{ ...endpoint, baseUrl: '/demos' }} variant="frame" demo />);
    expect(await screen.findByText('Your demo session has ended')).toBeInTheDocument();
    const demos = screen.getByRole('navigation', { name: 'Demos' });
    expect(
      within(demos)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual([
      '/public/demosRedirect?demo=vcdemo',
      '/public/demosRedirect?demo=customerservicedemo',
      '/public/demosRedirect?demo=salesoutreachdemo',
    ]);
    expect(screen.getByRole('link', { name: '← Back to Cadre' })).toHaveAttribute('href', '/');
    expect(screen.queryByText('Your chat session has ended — reopen the agent')).not.toBeInTheDocument();
  });

  it('on the demos, an ended session offers the demos and sign-up instead of an agents list', async () => {
    installFakeServer({
      'GET /demos/session': () => json({ detail: 'Not signed in to the chat', code: 'unauthorized' }, 401),
    });
    renderUi(<ChatApp endpoint={{ ...endpoint, baseUrl: '/demos' }} variant="frame" />);
    expect(await screen.findByText('Your demo session has ended')).toBeInTheDocument();
    expect(screen.queryByText(/agents list/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Try the VC Analyst demo' })).toHaveAttribute(
      'href',
      '/public/demosRedirect?demo=vcdemo',
    );
    expect(screen.getByRole('link', { name: 'Sign up to build your own agent' })).toHaveAttribute(
      'href',
      '/',
    );
  });

  it('on the demos, every conversation offers the next step: start over, another demo, sign up', async () => {
    installFakeServer({
      'GET /demos/session': () =>
        json({ ...session(), agent: { ...session().agent, name: 'Customer Support' } }),
      'GET /demos/threads': () => json({ data: [] }),
    });
    renderUi(<ChatApp endpoint={{ ...endpoint, baseUrl: '/demos' }} variant="frame" />);
    const next = await screen.findByTestId('demo-next-steps');
    expect(within(next).getByRole('button', { name: 'Start over' })).toBeInTheDocument();
    expect(within(next).queryByText('Try the Customer Support demo')).not.toBeInTheDocument();
    expect(within(next).getByRole('link', { name: 'Try the Sales Assistant demo' })).toBeInTheDocument();
    expect(within(next).getByRole('link', { name: 'Sign up to build your own agent' })).toBeInTheDocument();
  });

  it('signed-in chats show no demo next steps', async () => {
    installFakeServer({
      'GET /chainlit/session': () => json(session()),
      'GET /chainlit/threads': () => json({ data: [] }),
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" />);
    await screen.findByTestId('empty-state');
    expect(screen.queryByTestId('demo-next-steps')).not.toBeInTheDocument();
  });

  it('shows a clear error from the stream and retries by regenerating', async () => {
    let calls = 0;
    const { requests } = installFakeServer({
      'GET /chainlit/session': () => json(session({ offline: false, provider: 'openai', label: null })),
      'GET /chainlit/threads': () => json({ data: [] }),
      'POST /chainlit/chat': (r) => {
        calls += 1;
        const id = (r.body as { id: string }).id;
        return calls === 1
          ? sse([
              { type: 'start', messageId: 'a-1', messageMetadata: { threadId: id } },
              // As the server fails a run (runtime/run.ts): the category's part, then the error.
              {
                type: 'data-error',
                data: { category: 'rate_limited', message: 'The model provider is rate-limiting requests.' },
              },
              { type: 'error', errorText: 'The model provider is rate-limiting requests.' },
              { type: 'finish', messageMetadata: { status: 'error', errorCategory: 'rate_limited' } },
            ])
          : sse(answer(id, 'Recovered answer.'));
      },
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" />);
    await screen.findByTestId('empty-state');
    expect(screen.queryByTestId('offline-label')).toBeNull();
    expect(screen.queryByTestId('offline-notice')).toBeNull();
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'hello{Enter}');
    const alert = await screen.findByTestId('chat-error');
    expect(alert).toHaveTextContent('The model is rate-limited');
    expect(alert).toHaveTextContent('The model provider is rate-limiting requests.');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Recovered answer.')).toBeInTheDocument();
    const [sent, retried] = requests.filter((r) => r.url === '/chainlit/chat');
    expect((retried!.body as { trigger: string }).trigger).toBe('regenerate-message');
    // The Retry is a new action with a key of its own; the message's key would replay the failure.
    expect(retried!.headers['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
    expect(retried!.headers['idempotency-key']).not.toBe(sent!.headers['idempotency-key']);
    expect(screen.queryByTestId('chat-error')).toBeNull();
  });

  it('shows the run error the server streams as a data-error part (no model configured)', async () => {
    installFakeServer({
      'GET /chainlit/session': () =>
        json(session({ offline: false, provider: 'openai', label: null, configured: false })),
      'GET /chainlit/threads': () => json({ data: [] }),
      'POST /chainlit/chat': (r) =>
        sse([
          { type: 'start', messageId: 'a-1', messageMetadata: { threadId: (r.body as { id: string }).id } },
          { type: 'data-error', data: { category: 'no_model', message: 'No LLM provider is configured.' } },
          { type: 'error', errorText: 'No LLM provider is configured.' },
          { type: 'finish', messageMetadata: { status: 'error', errorCategory: 'no_model' } },
        ]),
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" />);
    await screen.findByTestId('empty-state');
    expect(screen.getByText('No model configured')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'hi{Enter}');
    const alert = await screen.findByTestId('chat-error');
    expect(alert).toHaveTextContent('No model is configured');
    expect(alert).toHaveTextContent('No LLM provider is configured.');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeEnabled();
  });

  it('resumes the remembered thread; Approve posts to that approval and streams into the same message', async () => {
    sessionStorage.setItem('cadre-chat:frame:last-thread:7', 'th-1');
    const pending = {
      type: 'dynamic-tool',
      toolCallId: 'call-1',
      toolName: 'notes_create',
      title: 'Create note',
      state: 'approval-requested',
      input: { title: 'Groceries', body: 'milk, eggs' },
      approval: { id: 'ap-42' },
      toolMetadata: { actionId: 3, effect: 'write' },
    };
    const { requests } = installFakeServer({
      'GET /chainlit/session': () => json(session()),
      'GET /chainlit/threads': () =>
        json({ data: [threadRow('th-1', 'Groceries'), threadRow('th-2', 'Older')] }),
      'GET /chainlit/threads/th-1/messages': () =>
        json(
          storedExchange({ id: 'th-1', name: 'Groceries' }, 'note groceries', {
            parts: [pending],
            status: 'awaiting_approval',
          }),
        ),
      'POST /chainlit/approvals/ap-42/approve': () =>
        sse([
          { type: 'start', messageId: 'a-1', messageMetadata: { threadId: 'th-1' } },
          { type: 'tool-output-available', toolCallId: 'call-1', output: { id: 'note-9' }, dynamic: true },
          { type: 'start-step' },
          { type: 'text-start', id: 't2' },
          { type: 'text-delta', id: 't2', delta: 'Saved the note.' },
          { type: 'text-end', id: 't2' },
          { type: 'finish-step' },
          { type: 'finish', messageMetadata: { status: 'complete' } },
        ]),
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" storage={sessionStorage} />);
    expect(await screen.findByText('note groceries')).toBeInTheDocument();
    expect(screen.getByText(/"body": "milk, eggs"/)).toBeInTheDocument();
    expect(screen.getAllByTestId('thread-item')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Saved the note.')).toBeInTheDocument();
    const approve = requests.find((r) => r.method === 'POST' && r.url.includes('/approvals/'))!;
    expect(approve.url).toBe('/chainlit/approvals/ap-42/approve');
    expect(approve.body).toEqual({ toolCallId: 'call-1' });
    expect(approve.headers['x-requested-with']).toBe('cadre-chat');
    expect(screen.getAllByTestId('assistant-message')).toHaveLength(1);
    expect(screen.getByTestId('tool-step')).toHaveAttribute('data-state', 'output-available');
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('a refused decision shows the server’s reason and the thread as the server has it', async () => {
    sessionStorage.setItem('cadre-chat:frame:last-thread:7', 'th-1');
    const call = (state: string) => ({
      type: 'dynamic-tool',
      toolCallId: 'call-1',
      toolName: 'gmail_send',
      state,
      input: { to: 'bob@example.com' },
      approval: { id: 'ap-7' },
      toolMetadata: { actionId: 4, effect: 'send' },
    });
    let stored = call('approval-requested');
    const { requests } = installFakeServer({
      'GET /chainlit/session': () => json(session()),
      'GET /chainlit/threads': () => json({ data: [threadRow('th-1', 'Mail')] }),
      'GET /chainlit/threads/th-1/messages': () =>
        json({
          thread: threadRow('th-1', 'Mail'),
          messages: [
            {
              id: 'a-1',
              role: 'assistant',
              parts: [{ type: 'step-start' }, stored],
              metadata: { status: 'awaiting_approval', createdAt: '2026-01-01T00:00:01.000Z' },
            },
          ],
          approvals: [],
        }),
      'POST /chainlit/approvals/ap-7/deny': () => {
        stored = { ...call('output-denied'), approval: { id: 'ap-7', approved: false } } as typeof stored;
        return json({ detail: 'This approval has expired; ask the agent again', code: 'expired' }, 410);
      },
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" storage={sessionStorage} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Deny' }));
    const alert = await screen.findByTestId('chat-error');
    expect(alert).toHaveTextContent('This approval has expired; ask the agent again');
    expect(alert).not.toHaveTextContent('{');
    await waitFor(() =>
      expect(screen.getByTestId('tool-step')).toHaveAttribute('data-state', 'output-denied'),
    );
    const deny = requests.find((r) => r.url.includes('/approvals/'))!;
    expect(deny.url).toBe('/chainlit/approvals/ap-7/deny');
    expect(deny.body).toEqual({ toolCallId: 'call-1' });
    expect(
      requests.filter((r) => r.url === `/chainlit/threads/th-1/messages?limit=${CHAT_PAGE_SIZE}`),
    ).toHaveLength(2);
  });

  it('shows an answer a crash or restart cut short with its text, says so, and offers Retry', async () => {
    sessionStorage.setItem('cadre-chat:frame:last-thread:7', 'th-1');
    const { requests } = installFakeServer({
      'GET /chainlit/session': () => json(session()),
      'GET /chainlit/threads': () => json({ data: [threadRow('th-1', 'Long story')] }),
      'GET /chainlit/threads/th-1/messages': () =>
        json(
          storedExchange({ id: 'th-1', name: 'Long story' }, 'tell me a long story', {
            parts: [{ type: 'text', text: 'Once upon a time, far away' }],
            status: 'interrupted',
          }),
        ),
      'POST /chainlit/chat': () => sse(answer('th-1', 'Once upon a time, the end.')),
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" storage={sessionStorage} />);
    expect(await screen.findByText('Once upon a time, far away')).toBeInTheDocument();
    expect(screen.getByTestId('interrupted-note')).toHaveTextContent('interrupted before it finished');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Once upon a time, the end.')).toBeInTheDocument();
    const retried = requests.find((r) => r.url === '/chainlit/chat')!.body as { trigger: string };
    expect(retried.trigger).toBe('regenerate-message');
  });

  it('renames and deletes threads', async () => {
    let threads = [threadRow('th-1', 'First'), threadRow('th-2', 'Second')];
    const { requests } = installFakeServer({
      'GET /chainlit/session': () => json(session()),
      'GET /chainlit/threads': () => json({ data: threads }),
      'PATCH /chainlit/threads/th-2': (r) => {
        threads = threads.map((t) =>
          t.id === 'th-2' ? { ...t, name: (r.body as { name: string }).name } : t,
        );
        return json(threads[1]);
      },
      'DELETE /chainlit/threads/th-1': () => {
        threads = threads.filter((t) => t.id !== 'th-1');
        return new Response(null, { status: 204 });
      },
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" />);
    await screen.findByTestId('empty-state');
    // jsdom has no layout: the list is reached through the drawer, as on a 375 px screen.
    fireEvent.click(screen.getByRole('button', { name: 'Show conversations' }));
    expect(screen.getByTestId('thread-drawer')).toBeInTheDocument();
    fireEvent.click(
      within(screen.getByTestId('thread-drawer')).getByRole('button', { name: 'Rename Second' }),
    );
    const input = screen.getByRole('textbox', { name: 'Thread name' });
    await userEvent.clear(input);
    await userEvent.type(input, 'Renamed{Enter}');
    expect((await screen.findAllByText('Renamed')).length).toBeGreaterThan(0);
    const drawer = within(screen.getByTestId('thread-drawer'));
    fireEvent.click(drawer.getByRole('button', { name: 'Delete First' }));
    fireEvent.click(drawer.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryAllByText('First')).toHaveLength(0));
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(['PATCH /chainlit/threads/th-2', 'DELETE /chainlit/threads/th-1']),
    );
  });
});
