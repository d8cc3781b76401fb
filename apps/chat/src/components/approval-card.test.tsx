import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatEndpoint } from '../lib/endpoint';
import { installFakeServer, json, session, sse, threadRow } from '../test/fake-server';
import { renderUi } from '../test/render';
import { ChatApp } from './chat-app';
import { ToolStep, type ToolCallPart } from './tool-step';

const endpoint: ChatEndpoint = { baseUrl: '/chainlit', servicesUrl: '/services', linkTarget: '_top' };
const MINUTE = 60_000;

const pending = (expiresInMs: number, id = 'ap-1'): ToolCallPart => ({
  type: 'dynamic-tool',
  toolCallId: 'call-1',
  toolName: 'notes_create',
  title: 'Create note',
  state: 'approval-requested',
  input: { title: 'Groceries' },
  approval: {
    id,
    // expiresAt deliberately far off: the card counts from the time left, not the client's clock.
    descriptor: { expiresAt: '2099-01-01T00:00:00.000Z', expiresInMs },
  },
  toolMetadata: { effect: 'write' },
});

const decisions = () =>
  ['Approve', 'Always allow for this agent', 'Deny'].map((name) => screen.queryByRole('button', { name }));

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('the approval card', () => {
  it('shows its expiry, counts down, and turns into "Expired — ask again" with nothing to click', () => {
    vi.useFakeTimers();
    const onDecide = vi.fn();
    renderUi(<ToolStep part={pending(2 * MINUTE + 5_000)} endpoint={endpoint} onDecide={onDecide} />);
    expect(screen.getByTestId('approval-expiry')).toHaveTextContent(/^Expires in 3 min \(at .+\)$/);
    // Each step wakes the card's one timer (an act() each, so its next timer is set).
    act(() => void vi.advanceTimersByTime(5_001));
    expect(screen.getByTestId('approval-expiry')).toHaveTextContent(/^Expires in 2 min/);
    act(() => void vi.advanceTimersByTime(MINUTE));
    expect(screen.getByTestId('approval-expiry')).toHaveTextContent(/^Expires in less than a minute/);
    expect(decisions().every((button) => button !== null)).toBe(true);

    act(() => void vi.advanceTimersByTime(MINUTE - 1_000));
    expect(screen.getByTestId('approval-expiry')).toHaveTextContent(/^Expires in less than a minute/);
    act(() => void vi.advanceTimersByTime(1_000));
    expect(screen.getByTestId('approval-expired')).toHaveTextContent('Expired — ask again');
    expect(screen.getByText('Expired')).toBeInTheDocument();
    expect(decisions()).toEqual([null, null, null]);
    expect(screen.queryByTestId('approval-expiry')).toBeNull();
    expect(onDecide).not.toHaveBeenCalled();
  });

  it('counts from when the approval was asked for, though the call showed before it', () => {
    vi.useFakeTimers();
    const asked = pending(2 * MINUTE);
    const running: ToolCallPart = { ...asked, state: 'input-available', approval: undefined };
    const { rerender } = renderUi(<ToolStep part={running} endpoint={endpoint} onDecide={vi.fn()} />);
    act(() => void vi.advanceTimersByTime(5 * MINUTE));
    rerender(<ToolStep part={asked} endpoint={endpoint} onDecide={vi.fn()} />);
    expect(screen.getByTestId('approval-expiry')).toHaveTextContent(/^Expires in 2 min/);
    expect(screen.getByRole('button', { name: 'Approve' })).toBeInTheDocument();
  });

  it('shows a card that had no time left when loaded as expired at once', () => {
    renderUi(<ToolStep part={pending(0)} endpoint={endpoint} onDecide={vi.fn()} />);
    expect(screen.getByTestId('approval-expired')).toHaveTextContent('Expired — ask again');
    expect(decisions()).toEqual([null, null, null]);
  });

  it('"Always allow for this agent" answers the card with that decision', () => {
    const onDecide = vi.fn();
    renderUi(<ToolStep part={pending(10 * MINUTE)} endpoint={endpoint} onDecide={onDecide} />);
    fireEvent.click(screen.getByRole('button', { name: 'Always allow for this agent' }));
    expect(onDecide).toHaveBeenCalledWith('ap-1', 'always', 'call-1');
  });
});

describe('the approval card in the frame', () => {
  const thread = threadRow('th-1', 'Groceries');
  const serve = (part: ToolCallPart, extra: Parameters<typeof installFakeServer>[0] = {}) => {
    sessionStorage.setItem('cadre-chat:frame:last-thread:7', 'th-1');
    return installFakeServer({
      'GET /chainlit/session': () => json(session()),
      'GET /chainlit/threads': () => json({ data: [thread] }),
      'GET /chainlit/threads/th-1/messages': () =>
        json({
          thread,
          messages: [
            {
              id: 'a-1',
              role: 'assistant',
              parts: [{ type: 'step-start' }, part],
              metadata: { status: 'awaiting_approval', createdAt: '2026-01-01T00:00:01.000Z' },
            },
          ],
          approvals: [],
        }),
      ...extra,
    });
  };

  it('expires on the frame’s timer and sends no request', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { requests } = serve(pending(5_000));
    renderUi(<ChatApp endpoint={endpoint} variant="frame" storage={sessionStorage} />);
    const card = await screen.findByTestId('tool-step');
    expect(within(card).getByRole('button', { name: 'Approve' })).toBeInTheDocument();
    const before = requests.length;
    act(() => void vi.advanceTimersByTime(6_000));
    expect(await within(card).findByText('Expired — ask again')).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(requests.slice(before)).toEqual([]);
    expect(requests.some((r) => r.url.includes('/approvals/'))).toBe(false);
  });

  it('"Always allow for this agent" approves with alwaysAllow', async () => {
    const { requests } = serve(pending(10 * MINUTE, 'ap-9'), {
      'POST /chainlit/approvals/ap-9/approve': () =>
        sse([
          { type: 'start', messageId: 'a-1', messageMetadata: { threadId: 'th-1' } },
          { type: 'tool-output-available', toolCallId: 'call-1', output: { id: 'note-1' }, dynamic: true },
          { type: 'finish', messageMetadata: { status: 'complete' } },
        ]),
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" storage={sessionStorage} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Always allow for this agent' }));
    await vi.waitFor(() =>
      expect(screen.getByTestId('tool-step')).toHaveAttribute('data-state', 'output-available'),
    );
    const approve = requests.find((r) => r.url.includes('/approvals/'))!;
    expect(approve.url).toBe('/chainlit/approvals/ap-9/approve');
    expect(approve.body).toEqual({ toolCallId: 'call-1', alwaysAllow: true });
  });

  it('a decision refused because the approval expired is not blamed on a connection', async () => {
    serve(pending(10 * MINUTE, 'ap-3'), {
      'POST /chainlit/approvals/ap-3/approve': () =>
        json({ detail: 'This approval expired; ask again', code: 'expired' }, 410),
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" storage={sessionStorage} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Approve' }));
    const alert = await screen.findByTestId('chat-error');
    expect(alert).toHaveTextContent('This approval can no longer be answered');
    expect(alert).toHaveTextContent('This approval expired; ask again');
    expect(alert).not.toHaveTextContent(/connection/i);
    expect(within(alert).queryByRole('link')).toBeNull();
  });
});
