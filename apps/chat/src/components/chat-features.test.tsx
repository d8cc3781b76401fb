import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatEndpoint } from '../lib/endpoint';
import { installFakeServer, json, session, sse, threadRow } from '../test/fake-server';
import { renderUi } from '../test/render';
import { ChatApp } from './chat-app';

const endpoint: ChatEndpoint = { baseUrl: '/chainlit', servicesUrl: '/services', linkTarget: '_top' };
const AT = '2026-03-09T14:05:00.000Z';

const answer = (threadId: string, text: string) => [
  {
    type: 'start',
    messageId: `a-${text.length}`,
    messageMetadata: { threadId, runId: 'r-1', offline: true, model: 'offline', createdAt: AT },
  },
  { type: 'text-start', id: 't1' },
  { type: 'text-delta', id: 't1', delta: text },
  { type: 'text-end', id: 't1' },
  { type: 'finish', messageMetadata: { status: 'complete' } },
];

/** A stream that starts an answer and never ends until the frame aborts it. */
const endless = (threadId: string) =>
  new Response(
    new ReadableStream({
      start(controller) {
        const chunk = { type: 'start', messageId: 'a-long', messageMetadata: { threadId } };
        controller.enqueue(new TextEncoder().encode(`data: ${JSON.stringify(chunk)}\n\n`));
      },
    }),
    { headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' } },
  );

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const base = {
  'GET /chainlit/session': () => json(session()),
  'GET /chainlit/threads': () => json({ data: [] }),
};

describe('chat features people expect', () => {
  it('copies a whole answer and shows the model (by its name in the model list) and the time it was written', async () => {
    installFakeServer({
      ...base,
      'POST /chainlit/chat': (r) => {
        const [start, ...rest] = answer((r.body as { id: string }).id, 'The sum is **5**.');
        const named = {
          ...start,
          messageMetadata: { ...start!.messageMetadata, model: 'gpt-4o-eu', modelName: 'GPT-4o (EU)' },
        };
        return sse([named, ...rest]);
      },
    });
    const user = userEvent.setup();
    renderUi(<ChatApp endpoint={endpoint} variant="frame" storage={sessionStorage} />);
    await user.click(await screen.findByRole('button', { name: 'Add 2 and 3' }));
    const message = await screen.findByTestId('assistant-message');
    await within(message).findByText('5');
    const meta = within(message).getByTestId('answer-meta');
    expect(meta).toHaveTextContent('GPT-4o (EU)');
    expect(meta).not.toHaveTextContent('gpt-4o-eu');
    expect(within(meta).getByText('GPT-4o (EU)')).toHaveAttribute('title', 'gpt-4o-eu');
    expect(meta.querySelector('time')).toHaveAttribute('datetime', AT);
    await user.click(within(message).getByRole('button', { name: 'Copy answer' }));
    expect(await within(message).findByText('Copied')).toBeInTheDocument();
    // user-event stands in for the clipboard: what the button wrote is read back.
    expect(await navigator.clipboard.readText()).toBe('The sum is **5**.');
  });

  it("says above an answer that it came from the default model when the agent's is no longer offered", async () => {
    const notice = "This agent's model 'retired' is no longer offered; answered with 'offline'.";
    installFakeServer({
      ...base,
      'POST /chainlit/chat': (r) => {
        const [start, ...rest] = answer((r.body as { id: string }).id, 'Hello.');
        return sse([start, { type: 'data-notice', data: { message: notice } }, ...rest]);
      },
    });
    const user = userEvent.setup();
    renderUi(<ChatApp endpoint={endpoint} variant="frame" storage={sessionStorage} />);
    await user.click(await screen.findByRole('button', { name: 'Add 2 and 3' }));
    const message = await screen.findByTestId('assistant-message');
    expect(await within(message).findByTestId('model-notice')).toHaveTextContent(notice);
    // No name in the model list: the id.
    expect(within(message).getByTestId('answer-meta')).toHaveTextContent('offline');
  });

  it('Esc stops a running answer', async () => {
    const { requests } = installFakeServer({
      ...base,
      'POST /chainlit/chat': (r) => endless((r.body as { id: string }).id),
      'POST /chainlit/threads/:id/stop': () => new Response(null, { status: 204 }),
    });
    const user = userEvent.setup();
    renderUi(<ChatApp endpoint={endpoint} variant="frame" storage={sessionStorage} />);
    await user.click(await screen.findByRole('button', { name: 'Add 2 and 3' }));
    expect(await screen.findByRole('button', { name: 'Stop' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(requests.some((r) => /\/threads\/[^/]+\/stop$/.test(r.url))).toBe(true));
    expect(await screen.findByRole('button', { name: 'Send' })).toBeInTheDocument();
  });

  it('↑ in an empty composer edits the last message, and the edit is sent in its place', async () => {
    const { requests } = installFakeServer({
      ...base,
      'POST /chainlit/chat': (r) => sse(answer((r.body as { id: string }).id, 'Done.')),
    });
    const user = userEvent.setup();
    renderUi(<ChatApp endpoint={endpoint} variant="frame" storage={sessionStorage} />);
    await user.click(await screen.findByRole('button', { name: 'Add 2 and 3' }));
    await screen.findByText('Done.');
    await user.click(screen.getByRole('textbox', { name: 'Message' }));
    await user.keyboard('{ArrowUp}');
    const edit = await screen.findByRole('textbox', { name: 'Edit message' });
    expect(edit).toHaveValue('Add 2 and 3');
    await user.clear(edit);
    await user.type(edit, 'Add 4 and 5');
    await user.click(screen.getByRole('button', { name: 'Save and resend' }));
    await waitFor(() => expect(requests.filter((r) => r.url === '/chainlit/chat')).toHaveLength(2));
    const resent = requests.filter((r) => r.url === '/chainlit/chat')[1]!.body as {
      messages: { parts: unknown[] }[];
    };
    expect(resent.messages[0]!.parts).toEqual([{ type: 'text', text: 'Add 4 and 5' }]);
  });

  it('searches this agent’s chats on the server', async () => {
    const thread = (id: string, name: string) => threadRow(id, name, AT);
    const { requests } = installFakeServer({
      'GET /chainlit/session': () => json(session()),
      'GET /chainlit/threads': (r) =>
        json({
          data: r.url.includes('q=tent')
            ? [thread('t-2', 'Camping')]
            : r.url.includes('q=')
              ? []
              : [thread('t-1', 'Sums'), thread('t-2', 'Camping')],
        }),
      'GET /chainlit/threads/:id/messages': () => json({ messages: [] }),
    });
    const user = userEvent.setup();
    renderUi(<ChatApp endpoint={endpoint} variant="frame" storage={sessionStorage} />);
    await screen.findByTestId('empty-state');
    // jsdom has no layout: the list is reached through the drawer, as on a small screen.
    await user.click(screen.getByRole('button', { name: 'Show conversations' }));
    const nav = within(screen.getByTestId('thread-drawer'));
    await nav.findByRole('button', { name: 'Sums' });
    await user.type(nav.getByRole('searchbox', { name: 'Search chats' }), 'tent');
    await waitFor(() => expect(nav.queryByRole('button', { name: 'Sums' })).not.toBeInTheDocument());
    expect(nav.getByRole('button', { name: 'Camping' })).toBeInTheDocument();
    expect(requests.some((r) => r.url === '/chainlit/threads?q=tent')).toBe(true);
    await user.clear(nav.getByRole('searchbox', { name: 'Search chats' }));
    await user.type(nav.getByRole('searchbox', { name: 'Search chats' }), 'zzz');
    expect(await nav.findByText('No chats match “zzz”.')).toBeInTheDocument();
  });

  it('rates an answer with a thumb and an optional comment, and takes it back', async () => {
    const { requests } = installFakeServer({
      ...base,
      'POST /chainlit/chat': (r) => sse(answer((r.body as { id: string }).id, 'Done.')),
      'PUT /chainlit/messages/a-5/feedback': (r) =>
        json({ messageId: 'a-5', comment: null, updatedAt: AT, ...(r.body as object) }),
      'DELETE /chainlit/messages/a-5/feedback': () => new Response(null, { status: 204 }),
    });
    const user = userEvent.setup();
    renderUi(<ChatApp endpoint={endpoint} variant="frame" storage={sessionStorage} />);
    await user.click(await screen.findByRole('button', { name: 'Add 2 and 3' }));
    const message = await screen.findByTestId('assistant-message');
    await within(message).findByText('Done.');
    await user.click(within(message).getByRole('button', { name: 'Bad answer' }));
    const box = await within(message).findByRole('textbox', { name: 'Comment on this answer (optional)' });
    expect(within(message).getByRole('button', { name: 'Bad answer' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await user.type(box, 'Wrong sum');
    await user.click(within(message).getByRole('button', { name: 'Send' }));
    expect(await within(message).findByRole('button', { name: 'Saved' })).toBeInTheDocument();
    await user.click(within(message).getByRole('button', { name: 'Bad answer' }));
    await waitFor(() =>
      expect(requests.filter((r) => r.url.endsWith('/feedback')).map((r) => [r.method, r.body])).toEqual([
        ['PUT', { rating: 'down', comment: null }],
        ['PUT', { rating: 'down', comment: 'Wrong sum' }],
        ['DELETE', undefined],
      ]),
    );
    expect(requests.find((r) => r.url.endsWith('/feedback'))!.url).toBe('/chainlit/messages/a-5/feedback');
  });
});
