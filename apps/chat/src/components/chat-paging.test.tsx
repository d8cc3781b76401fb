import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installIntersectionObserver } from '../../../../test-support/intersection-observer';
import { CHAT_PAGE_SIZE } from '../lib/api';
import type { ChatEndpoint } from '../lib/endpoint';
import { installFakeServer, json, session, threadRow, type RecordedRequest } from '../test/fake-server';
import { renderUi } from '../test/render';
import { ChatApp } from './chat-app';

const endpoint: ChatEndpoint = {
  baseUrl: '/chainlit',
  agentId: 7,
  servicesUrl: 'https://cadre.example/services',
  linkTarget: '_top',
};

const query = (request: RecordedRequest) => new URL(request.url, 'https://cadre.example').searchParams;

/** `count` threads, newest first, served a page at a time like the chat service (cursor: an offset). */
function threadPages(count: number) {
  const all = Array.from({ length: count }, (_, i) => threadRow(`th-${i + 1}`, `Chat ${i + 1}`));
  return (request: RecordedRequest) => {
    const limit = Number(query(request).get('limit'));
    const start = Number(query(request).get('cursor') ?? 0);
    const end = start + limit;
    return json({ data: all.slice(start, end), nextCursor: end < count ? String(end) : null });
  };
}

/** A thread of `count` messages (m-1 the oldest), the newest `limit` before `cursor` per page. */
function messagePages(threadId: string, count: number) {
  const all = Array.from({ length: count }, (_, i) => ({
    id: `m-${i + 1}`,
    role: i % 2 ? 'assistant' : 'user',
    parts: [{ type: 'text', text: `Message ${i + 1}` }],
    metadata: { status: 'complete', createdAt: '2026-01-01T00:00:00.000Z' },
  }));
  return (request: RecordedRequest) => {
    const limit = Number(query(request).get('limit'));
    const before = Number(query(request).get('cursor') ?? count);
    const start = Math.max(0, before - limit);
    return json({
      thread: threadRow(threadId, 'Long chat'),
      messages: all.slice(start, before),
      approvals: [],
      nextCursor: start > 0 ? String(start) : null,
    });
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const threadItems = () => within(screen.getByTestId('thread-drawer')).queryAllByTestId('thread-item');
const shownMessages = () =>
  [...document.querySelectorAll('[data-testid$="-message"]')].map((m) => m.textContent);

describe('the chat frame in pages', () => {
  it('lists the newest threads first and older ones at the end of the list or on "Load more chats"', async () => {
    const view = installIntersectionObserver();
    const { requests } = installFakeServer({
      'GET /chainlit/session': () => json(session()),
      'GET /chainlit/threads': threadPages(CHAT_PAGE_SIZE * 2 + 5),
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" initialThreadId={null} />);
    // jsdom has no layout: the list is reached through the drawer, as on a 375 px screen.
    fireEvent.click(await screen.findByRole('button', { name: 'Show conversations' }));
    const panel = await screen.findByTestId('thread-drawer');
    await waitFor(() => expect(threadItems()).toHaveLength(CHAT_PAGE_SIZE));

    await view.scrollIntoView(within(panel).getByTestId('more-threads'));
    await waitFor(() => expect(threadItems()).toHaveLength(CHAT_PAGE_SIZE * 2));
    fireEvent.click(within(panel).getByRole('button', { name: 'Load more chats' }));
    await waitFor(() => expect(threadItems()).toHaveLength(CHAT_PAGE_SIZE * 2 + 5));
    expect(within(panel).queryByTestId('more-threads')).not.toBeInTheDocument();
    expect(threadItems().at(-1)).toHaveTextContent(`Chat ${CHAT_PAGE_SIZE * 2 + 5}`);
    const asked = requests
      .filter((r) => r.url.startsWith('/chainlit/threads?'))
      .map((r) => query(r).get('cursor'));
    expect(asked).toEqual([null, String(CHAT_PAGE_SIZE), String(CHAT_PAGE_SIZE * 2)]);
  });

  it('keeps the threads listed when older ones fail to load, and loads them on "Try again"', async () => {
    installIntersectionObserver();
    let down = true;
    const pages = threadPages(CHAT_PAGE_SIZE + 3);
    installFakeServer({
      'GET /chainlit/session': () => json(session()),
      'GET /chainlit/threads': (request) =>
        down && query(request).has('cursor')
          ? json({ detail: 'down', code: 'internal_error' }, 500)
          : pages(request),
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" initialThreadId={null} />);
    // jsdom has no layout: the list is reached through the drawer, as on a 375 px screen.
    fireEvent.click(await screen.findByRole('button', { name: 'Show conversations' }));
    const panel = await screen.findByTestId('thread-drawer');
    fireEvent.click(await within(panel).findByRole('button', { name: 'Load more chats' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent('Older chats could not be loaded.');
    expect(threadItems()).toHaveLength(CHAT_PAGE_SIZE);
    down = false;
    fireEvent.click(within(panel).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(threadItems()).toHaveLength(CHAT_PAGE_SIZE + 3));
  });

  it('opens a long thread at its newest messages and loads earlier ones above, keeping the place read', async () => {
    const view = installIntersectionObserver();
    const count = CHAT_PAGE_SIZE * 2 + 10;
    installFakeServer({
      'GET /chainlit/session': () => json(session()),
      'GET /chainlit/threads': () => json({ data: [threadRow('th-long', 'Long chat')] }),
      'GET /chainlit/threads/th-long/messages': messagePages('th-long', count),
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" initialThreadId="th-long" />);
    await screen.findByText(`Message ${count}`);
    expect(shownMessages()).toHaveLength(CHAT_PAGE_SIZE);
    expect(shownMessages()[0]).toContain(`Message ${count - CHAT_PAGE_SIZE + 1}`);

    // jsdom lays nothing out: each message counts 100 px, and the person reads the top of the list.
    const earlier = screen.getByTestId('earlier-messages');
    const scroller = earlier.parentElement!.parentElement!;
    Object.defineProperty(scroller, 'scrollHeight', { get: () => shownMessages().length * 100 });
    scroller.scrollTop = 0;
    await view.scrollIntoView(earlier);
    await waitFor(() => expect(shownMessages()).toHaveLength(CHAT_PAGE_SIZE * 2));
    expect(shownMessages()[0]).toContain(`Message ${count - CHAT_PAGE_SIZE * 2 + 1}`);
    // The message that was at the top is still where it was: the earlier ones went above the view.
    expect(scroller.scrollTop).toBe(CHAT_PAGE_SIZE * 100);

    fireEvent.click(screen.getByRole('button', { name: 'Load earlier messages' }));
    await waitFor(() => expect(shownMessages()).toHaveLength(count));
    expect(shownMessages()[0]).toContain('Message 1');
    expect(screen.queryByTestId('earlier-messages')).not.toBeInTheDocument();
  });

  it('keeps the messages shown when earlier ones fail to load, and loads them on "Try again"', async () => {
    installIntersectionObserver();
    let down = true;
    const pages = messagePages('th-long', CHAT_PAGE_SIZE + 4);
    installFakeServer({
      'GET /chainlit/session': () => json(session()),
      'GET /chainlit/threads': () => json({ data: [threadRow('th-long', 'Long chat')] }),
      'GET /chainlit/threads/th-long/messages': (request) =>
        down && query(request).has('cursor')
          ? json({ detail: 'down', code: 'internal_error' }, 500)
          : pages(request),
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" initialThreadId="th-long" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Load earlier messages' }));
    expect(await screen.findByText('Earlier messages could not be loaded.')).toBeInTheDocument();
    expect(shownMessages()).toHaveLength(CHAT_PAGE_SIZE);
    down = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(shownMessages()).toHaveLength(CHAT_PAGE_SIZE + 4));
  });
});
