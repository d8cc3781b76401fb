import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatEndpoint } from '../lib/endpoint';
import { installFakeServer, json, session, threadRow } from '../test/fake-server';
import { renderUi } from '../test/render';
import { ChatApp } from './chat-app';

const endpoint: ChatEndpoint = {
  baseUrl: '/chainlit',
  agentId: 7,
  servicesUrl: 'https://cadre.example/services',
  linkTarget: '_top',
};

const outage = (body: unknown, retryAfter: string) =>
  new Response(JSON.stringify(body), {
    status: 503,
    headers: { 'content-type': 'application/json', 'retry-after': retryAfter },
  });

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('the chat frame during a database outage', () => {
  it('says calmly that it retries while loading, tries again as Retry-After asks, and recovers by itself', async () => {
    let down = true;
    const asked: number[] = [];
    const { requests } = installFakeServer({
      'GET /chainlit/session': () => {
        asked.push(Date.now());
        return down
          ? outage({ detail: 'Service temporarily unavailable', code: 'db_unavailable' }, '1')
          : json(session());
      },
      'GET /chainlit/threads': () => json({ data: [threadRow('th-1', 'Earlier chat')], nextCursor: null }),
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" initialThreadId={null} />);
    const notice = await screen.findByTestId('outage-notice');
    expect(notice).toHaveTextContent('Cadre cannot reach its database; retrying');
    expect(notice).toHaveAttribute('role', 'status');
    expect(screen.getByLabelText('Loading')).toBeInTheDocument();
    down = false;
    fireEvent.click(await screen.findByRole('button', { name: 'Show conversations' }, { timeout: 4_000 }));
    expect(
      await within(await screen.findByTestId('thread-drawer')).findByText('Earlier chat'),
    ).toBeInTheDocument();
    expect(requests.filter((r) => r.url === '/chainlit/session')).toHaveLength(2);
    // Not at once: a second later, as Retry-After asked.
    expect(asked[1]! - asked[0]!).toBeGreaterThanOrEqual(1_000);
    expect(screen.queryByTestId('outage-notice')).not.toBeInTheDocument();
    expect(screen.queryByText('The chat could not load')).not.toBeInTheDocument();
  });

  it("says Cadre cannot be reached for the proxy's answer when no instance is up", async () => {
    installFakeServer({
      'GET /chainlit/session': () =>
        outage({ detail: 'No Cadre instance is available', code: 'unavailable' }, '5'),
    });
    renderUi(<ChatApp endpoint={endpoint} variant="frame" initialThreadId={null} />);
    expect(await screen.findByTestId('outage-notice')).toHaveTextContent('Cadre cannot be reached; retrying');
    await waitFor(() => expect(screen.getByLabelText('Loading')).toBeInTheDocument());
  });
});
