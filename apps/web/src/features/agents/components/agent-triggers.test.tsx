import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { toaster } from '../../../components/ui/toaster';
import { held, installFakeApi, json, type ApiHandler } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';
import type { Agent } from '../api/agents-api';
import type { TriggerEvent } from '../api/triggers-api';
import { agentFixture } from '../../../test/agent-fixture';

const AGENT: Agent = agentFixture({
  id: 1,
  name: 'Bookkeeper',
  description: 'Does sums',
});

const event = (id: number, status: TriggerEvent['status'], thread_id: string | null): TriggerEvent => ({
  id,
  trigger_id: `order-${id}`,
  status,
  attempts: status === 'pending' ? 0 : 1,
  thread_id,
  received_at: '2026-03-01T10:00:00.000Z',
  updated_at: '2026-03-01T10:00:05.000Z',
});

function fakeApi(extra: Record<string, ApiHandler> = {}) {
  return installFakeApi({
    'GET /api/v1/agents/': () => json([AGENT]),
    'GET /api/v1/agents/:agent_id/agent': () => json(AGENT),
    'GET /api/v1/agents/:agent_id/tool-permissions': () => json({ data: [] }),
    'GET /api/v1/agents/:agent_id/versions': () => json([]),
    'GET /api/v1/services/active': () => json([]),
    'GET /api/v1/agents/:agent_id/triggers/events': () => json([]),
    'GET /api/v1/agents/:agent_id/trigger-secret': () => json({ created_at: null }),
    ...extra,
  });
}

const triggers = async () =>
  within((await screen.findByRole('heading', { name: 'Triggers' })).closest('section')!);

afterEach(() => toaster.remove());

describe("the agent editor's Triggers section", () => {
  it('shows the trigger URL and a curl call with an API key', async () => {
    fakeApi();
    renderApp('/agents/1/edit?section=triggers');
    const section = await triggers();
    expect(section.getByTestId('trigger-url')).toHaveTextContent(
      'http://app.test/backend/api/v1/agents/1/triggers/new-order',
    );
    const curl = section.getByTestId('trigger-curl').textContent;
    expect(curl).toContain("curl -X POST 'http://app.test/backend/api/v1/agents/1/triggers/new-order'");
    expect(curl).toContain("-H 'Authorization: Bearer cadre_…'");
    expect(section.getByRole('button', { name: 'Copy Trigger URL' })).toBeInTheDocument();
    // How to sign: the Standard Webhooks headers over the id, timestamp and body.
    const signing = section.getByTestId('trigger-signing-example').textContent;
    expect(signing).toContain("'webhook-signature': `v1,${signature}`");
    expect(signing).toContain('${id}.${timestamp}.${body}');
  });

  it('lists the last runs with their status and a link to each thread', async () => {
    fakeApi({
      'GET /api/v1/agents/:agent_id/triggers/events': () =>
        json([event(3, 'pending', null), event(2, 'failed', 'th-2'), event(1, 'done', 'th-1')]),
    });
    renderApp('/agents/1/edit?section=triggers');
    const section = await triggers();
    const table = await section.findByRole('table', { name: 'Last runs' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
      'order-3',
      'order-2',
      'order-1',
    ]);
    expect(within(rows[0]!).getByText('Queued')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Not started')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Failed')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Done')).toBeInTheDocument();
    expect(section.getByRole('link', { name: 'Open the thread of run 1' })).toHaveAttribute(
      'href',
      '/agents/1/chat/th-1',
    );
  });

  it('says so while the runs load, when there are none, and when they cannot be loaded', async () => {
    const slow = held();
    const api = fakeApi({ 'GET /api/v1/agents/:agent_id/triggers/events': slow.handler });
    const { user } = renderApp('/agents/1/edit?section=triggers');
    const section = await triggers();
    expect(section.getByLabelText('Loading trigger runs')).toBeInTheDocument();
    slow.release(json([]));
    expect(await section.findByText('No trigger calls yet.')).toBeInTheDocument();

    api.answer('GET /api/v1/agents/:agent_id/triggers/events', () =>
      json({ detail: 'down', code: 'internal_error' }, 500),
    );
    await user.click(section.getByRole('button', { name: 'Refresh' }));
    expect(await section.findByRole('alert')).toHaveTextContent('The trigger runs could not be loaded.');
  });

  it('creates the signing secret, shows it once, and asks before rotating it', async () => {
    let createdAt: string | null = null;
    const api = fakeApi({
      'GET /api/v1/agents/:agent_id/trigger-secret': () => json({ created_at: createdAt }),
      'POST /api/v1/agents/:agent_id/trigger-secret': () => {
        createdAt = '2026-03-01T10:00:00.000Z';
        return json({ secret: 'whsec_c2VjcmV0LWJ5dGVz', created_at: createdAt }, 201);
      },
    });
    const { user } = renderApp('/agents/1/edit?section=triggers');
    const section = await triggers();
    expect(await section.findByText('Signed calls are off: no secret yet.')).toBeInTheDocument();
    await user.click(section.getByRole('button', { name: 'Create secret' }));
    expect(await section.findByTestId('trigger-secret')).toHaveTextContent('whsec_c2VjcmV0LWJ5dGVz');
    expect(section.getByText('Copy the secret now: it is shown only this once.')).toBeInTheDocument();
    await waitFor(() =>
      expect(section.getByTestId('trigger-secret-status')).toHaveTextContent(/^Signed calls are on/),
    );
    expect(api.sent('POST /api/v1/agents/:agent_id/trigger-secret').map((r) => r.path)).toEqual([
      '/api/v1/agents/1/trigger-secret',
    ]);

    // Rotating breaks the hosts that sign with the current secret: it is confirmed first.
    await user.click(section.getByRole('button', { name: 'Rotate secret' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Hosts signing with the current secret are refused from now on');
    await user.click(within(dialog).getByRole('button', { name: 'Rotate secret' }));
    await waitFor(() => expect(api.sent('POST /api/v1/agents/:agent_id/trigger-secret')).toHaveLength(2));
  });
});
