import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatEndpoint } from '../lib/endpoint';
import { installFakeServer, json, session, storedExchange, threadRow } from '../test/fake-server';
import { renderUi } from '../test/render';
import { ChatApp } from './chat-app';

const endpoint: ChatEndpoint = {
  baseUrl: '/chainlit',
  servicesUrl: 'https://cadre.example/services',
  linkTarget: '_top',
};

/** An answer stream the test writes chunk by chunk, as a server still writing the answer does. */
function liveStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  const encoder = new TextEncoder();
  return {
    response: () =>
      new Response(body, {
        headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' },
      }),
    send: (...chunks: unknown[]) =>
      controller.enqueue(encoder.encode(chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join(''))),
    end: () => {
      controller.enqueue(encoder.encode('data: [DONE]\n\n'));
      controller.close();
    },
  };
}

const start = { type: 'start', messageId: 'a-1', messageMetadata: { threadId: 'th-1', runId: 'r-1' } };
const delta = (text: string) => ({ type: 'text-delta', id: 't1', delta: text });

const stored = (answer: { text: string; status: string }) =>
  storedExchange({ id: 'th-1', name: 'Long story' }, 'tell me a long story', {
    parts: [{ type: 'text', text: answer.text }],
    status: answer.status,
  });

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('a live answer in the frame', () => {
  it('on reload, rejoins the answer still being written and shows it continue to its end', async () => {
    sessionStorage.setItem('cadre-chat:frame:last-thread:7', 'th-1');
    const live = liveStream();
    let loads = 0;
    const { requests } = installFakeServer({
      'GET /chainlit/session': () => json(session()),
      'GET /chainlit/threads': () => json({ data: [threadRow('th-1', 'Long story')] }),
      'GET /chainlit/threads/th-1/messages': () => {
        loads += 1;
        // The last snapshot saved, then (read again once the answer ended) the answer as stored.
        return json(
          loads === 1
            ? stored({ text: 'Once upon', status: 'streaming' })
            : stored({ text: 'Once upon a time, the end.', status: 'complete' }),
        );
      },
      'GET /chainlit/chat/th-1/stream': () => live.response(),
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" storage={sessionStorage} />);
    expect(await screen.findByText('Once upon')).toBeInTheDocument();
    await waitFor(() => expect(requests.some((r) => r.url === '/chainlit/chat/th-1/stream')).toBe(true));
    // The server replays the answer from its first word: it replaces the snapshot, never doubles it.
    live.send(start, { type: 'start-step' }, { type: 'text-start', id: 't1' }, delta('Once upon'));
    live.send(delta(' a time'));
    expect(await screen.findByText('Once upon a time')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /stop/i })).toBeInTheDocument();
    live.send(delta(', the end.'), { type: 'text-end', id: 't1' }, { type: 'finish-step' });
    live.send({ type: 'finish', messageMetadata: { status: 'complete' } });
    live.end();
    expect(await screen.findByText('Once upon a time, the end.')).toBeInTheDocument();
    expect(screen.queryByText('Once upon')).not.toBeInTheDocument();
    expect(screen.queryByTestId('interrupted-note')).not.toBeInTheDocument();
    await waitFor(() => expect(loads).toBe(2));
  });

  it('does not ask to rejoin a thread whose last answer is finished', async () => {
    sessionStorage.setItem('cadre-chat:frame:last-thread:7', 'th-1');
    const { requests } = installFakeServer({
      'GET /chainlit/session': () => json(session()),
      'GET /chainlit/threads': () => json({ data: [threadRow('th-1', 'Long story')] }),
      'GET /chainlit/threads/th-1/messages': () =>
        json(stored({ text: 'Once upon a time, the end.', status: 'complete' })),
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" storage={sessionStorage} />);
    expect(await screen.findByText('Once upon a time, the end.')).toBeInTheDocument();
    expect(requests.some((r) => r.url.endsWith('/stream'))).toBe(false);
  });

  it('Stop on an answer whose server is gone shows it interrupted, with Retry', async () => {
    sessionStorage.setItem('cadre-chat:frame:last-thread:7', 'th-1');
    const live = liveStream();
    installFakeServer({
      'GET /chainlit/session': () => json(session()),
      'GET /chainlit/threads': () => json({ data: [threadRow('th-1', 'Long story')] }),
      'GET /chainlit/threads/th-1/messages': () =>
        json(stored({ text: 'A first answer.', status: 'complete' })),
      'POST /chainlit/chat': () => live.response(),
      'POST /chainlit/threads/th-1/stop': () =>
        json({
          stopped: true,
          outcome: 'released',
          detail: 'The server writing this answer stopped responding; the answer was ended as interrupted.',
        }),
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" storage={sessionStorage} />);
    expect(await screen.findByText('A first answer.')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'another one{Enter}');
    live.send(
      { ...start, messageId: 'a-2' },
      { type: 'start-step' },
      { type: 'text-start', id: 't1' },
      delta('Once upon a'),
    );
    expect(await screen.findByText('Once upon a')).toBeInTheDocument();
    expect(screen.queryByTestId('interrupted-note')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /stop/i }));
    expect(await screen.findByTestId('interrupted-note')).toHaveTextContent('interrupted before it finished');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
