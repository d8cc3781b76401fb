import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { agentFixture } from '../test/agent-fixture';
import { hasText, watchFor } from '../test/ever-shown';
import { installFakeApi, json } from '../test/fake-api';
import { renderApp } from '../test/render';

const outage = (code: string, retryAfter: string) =>
  new Response(JSON.stringify({ detail: 'Service temporarily unavailable', code }), {
    status: 503,
    headers: { 'content-type': 'application/json', 'retry-after': retryAfter },
  });

const MAIL = agentFixture({ id: 1, name: 'Mail Sorter', description: 'Files mail' });

describe('a database outage in the web app', () => {
  it('says calmly that it retries, tries again as Retry-After asks, and recovers by itself', async () => {
    let down = true;
    const api = installFakeApi({
      'GET /api/v1/agents/': () => (down ? outage('db_unavailable', '1') : json([MAIL])),
    });
    const failed = watchFor(hasText('Error loading agents.'));
    renderApp('/agents');
    const notice = await screen.findByTestId('outage-notice', {}, { timeout: 4_000 });
    expect(notice).toHaveTextContent('Cadre cannot reach its database; retrying');
    expect(notice).toHaveAttribute('role', 'status');
    await waitFor(() => expect(api.sent('GET /api/v1/agents/')).toHaveLength(2), { timeout: 4_000 });
    down = false;
    // The third try works: past the one retry any other failure gets (agents-page.test.tsx).
    expect(await screen.findByRole('cell', { name: 'Mail Sorter' }, { timeout: 6_000 })).toBeInTheDocument();
    expect(api.sent('GET /api/v1/agents/')).toHaveLength(3);
    await waitFor(() => expect(screen.queryByTestId('outage-notice')).not.toBeInTheDocument());
    // No error screen and no toast at any moment.
    expect(failed.seen).toBe(false);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    failed.stop();
  });

  it("says Cadre cannot be reached for the proxy's own 503 when no instance is up", async () => {
    installFakeApi({
      'GET /api/v1/agents/': () =>
        new Response('<html><body><h1>503 Service Unavailable</h1></body></html>', {
          status: 503,
          headers: { 'content-type': 'text/html' },
        }),
    });
    renderApp('/agents');
    expect(await screen.findByTestId('outage-notice', {}, { timeout: 4_000 })).toHaveTextContent(
      'Cadre cannot be reached; retrying',
    );
  });
});
