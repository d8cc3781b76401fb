import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatEndpoint } from '../lib/endpoint';
import { installFakeServer, json, session, sse, threadRow } from '../test/fake-server';
import { renderUi } from '../test/render';
import { ChatApp } from './chat-app';

/** The frame as the web app opens it: for one agent, at one thread's address (issue 16 item 1). */
const endpoint: ChatEndpoint = {
  baseUrl: '/chainlit',
  agentId: 7,
  servicesUrl: 'https://cadre.example/services',
  linkTarget: '_top',
};

const said = (id: string, text: string) =>
  json({
    thread: threadRow(id, text),
    messages: [
      {
        id: `u-${id}`,
        role: 'user',
        parts: [{ type: 'text', text }],
        metadata: { status: 'complete', createdAt: '2026-01-01T00:00:00.000Z' },
      },
    ],
    approvals: [],
  });

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('ChatApp thread addresses', () => {
  it('names its agent on every request', async () => {
    const { requests } = installFakeServer({
      'GET /chainlit/session': () => json(session()),
      'GET /chainlit/threads': () => json({ data: [] }),
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" initialThreadId={null} />);
    await screen.findByTestId('empty-state');
    expect(requests.length).toBeGreaterThan(1);
    expect(requests.every((r) => r.headers['x-agent-id'] === '7')).toBe(true);
  });

  it('opens the thread of its address; picking another is a new history step', async () => {
    const changes = vi.fn();
    installFakeServer({
      'GET /chainlit/session': () => json(session()),
      'GET /chainlit/threads': () =>
        json({ data: [threadRow('th-1', 'Groceries'), threadRow('th-2', 'Trip')] }),
      'GET /chainlit/threads/th-2/messages': () => said('th-2', 'plan the trip'),
      'GET /chainlit/threads/th-1/messages': () => said('th-1', 'note groceries'),
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" initialThreadId="th-2" onThreadChange={changes} />);
    expect(await screen.findByText('plan the trip')).toBeInTheDocument();
    expect(changes).toHaveBeenLastCalledWith('th-2', 'replace');
    // jsdom has no layout: the list is reached through the drawer, as on a 375 px screen.
    fireEvent.click(screen.getByRole('button', { name: 'Show conversations' }));
    fireEvent.click(within(screen.getByTestId('thread-drawer')).getByRole('button', { name: 'Groceries' }));
    expect(await screen.findByText('note groceries')).toBeInTheDocument();
    expect(changes).toHaveBeenLastCalledWith('th-1', 'push');
    fireEvent.click(screen.getByRole('button', { name: 'Show conversations' }));
    fireEvent.click(within(screen.getByTestId('thread-drawer')).getByRole('button', { name: /New chat/ }));
    expect(await screen.findByTestId('empty-state')).toBeInTheDocument();
    expect(changes).toHaveBeenLastCalledWith(null, 'push');
  });

  it('gives a new chat its address when its first turn is stored, in place of the empty one', async () => {
    const changes = vi.fn();
    const { requests } = installFakeServer({
      'GET /chainlit/session': () => json(session()),
      'GET /chainlit/threads': () => json({ data: [] }),
      'POST /chainlit/chat': (r) =>
        sse([
          { type: 'start', messageId: 'a-1', messageMetadata: { threadId: (r.body as { id: string }).id } },
          { type: 'text-start', id: 't1' },
          { type: 'text-delta', id: 't1', delta: 'Done.' },
          { type: 'text-end', id: 't1' },
          { type: 'finish', messageMetadata: { status: 'complete' } },
        ]),
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" initialThreadId={null} onThreadChange={changes} />);
    expect(await screen.findByTestId('empty-state')).toBeInTheDocument();
    expect(changes).toHaveBeenLastCalledWith(null, 'replace');
    fireEvent.click(screen.getByRole('button', { name: 'Add 2 and 3' }));
    expect(await screen.findByText('Done.')).toBeInTheDocument();
    const id = (requests.find((r) => r.url === '/chainlit/chat')!.body as { id: string }).id;
    await waitFor(() => expect(changes).toHaveBeenLastCalledWith(id, 'replace'));
    expect(changes.mock.calls.filter(([threadId]) => threadId === id)).toHaveLength(1);
  });

  it("shows not found for a thread that is not the person's, with nothing of anyone else's", async () => {
    const changes = vi.fn();
    installFakeServer({
      'GET /chainlit/session': () => json(session()),
      'GET /chainlit/threads': () => json({ data: [threadRow('th-1', 'Groceries')] }),
      'GET /chainlit/threads/someone-elses/messages': () =>
        json({ detail: 'Thread not found', code: 'not_found' }, 404),
    });
    renderUi(
      <ChatApp
        endpoint={endpoint}
        variant="frame"
        initialThreadId="someone-elses"
        onThreadChange={changes}
      />,
    );
    expect(await screen.findByTestId('thread-not-found')).toHaveTextContent('Conversation not found');
    expect(screen.queryByTestId('empty-state')).not.toBeInTheDocument();
    expect(changes).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Start a new chat' }));
    expect(await screen.findByTestId('empty-state')).toBeInTheDocument();
    expect(changes).toHaveBeenLastCalledWith(null, 'push');
  });
});
