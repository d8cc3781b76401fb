import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toaster } from '../../../components/ui/toaster';
import { installFakeApi, json } from '../../../test/fake-api';
import { findToast, renderApp } from '../../../test/render';
import type { Agent, ToolPermission } from '../api/agents-api';
import { agentFixture } from '../../../test/agent-fixture';

const AGENT: Agent = agentFixture({
  id: 1,
  name: 'Desk',
  description: 'Takes notes',
  tools: [
    {
      id: 21,
      display_name: 'Create note',
      name: 'NOTES_CREATE_NOTE',
      description: 'Creates a note',
      logo: null,
      app_name: 'Notes',
      service_id: 2,
      needs_reconnecting: false,
    },
  ],
});

const note = (over: Partial<ToolPermission> = {}): ToolPermission => ({
  action_id: 21,
  display_name: 'Create note',
  app_name: 'Notes',
  effect: 'write',
  mode: 'ask',
  source: null,
  allowed_at: null,
  ...over,
});

afterEach(() => {
  toaster.remove();
  vi.unstubAllGlobals();
});

describe('the agent editor’s approvals (/agents/:id/edit)', () => {
  it('shows each write tool’s choice and switches it, saved at once', async () => {
    let current = note({ mode: 'allow', source: 'chat', allowed_at: '2026-11-24T09:00:00.000Z' });
    const api = installFakeApi({
      'GET /api/v1/agents/': () => json([AGENT]),
      'GET /api/v1/agents/:agent_id/agent': () => json(AGENT),
      'GET /api/v1/agents/:agent_id/versions': () => json([]),
      'GET /api/v1/services/active': () => json([]),
      'GET /api/v1/agents/:agent_id/tool-permissions': () => json({ data: [current] }),
      'PUT /api/v1/agents/:agent_id/tool-permissions/:action_id': ({ params, body }) => {
        expect(params).toEqual({ agent_id: '1', action_id: '21' });
        current = note({ mode: (body as { mode: 'ask' | 'allow' }).mode });
        return json(current);
      },
    });
    renderApp('/agents/1/edit');
    const section = await screen.findByTestId('tool-permissions');
    const select = within(section).getByRole('combobox', { name: 'Approval for Create note' });
    expect(select).toHaveValue('allow');
    expect(within(section).getByText(/Allowed from the chat on/)).toBeInTheDocument();

    await userEvent.selectOptions(select, 'Ask every time');
    await findToast('Create note asks every time');
    expect(api.sent('PUT /api/v1/agents/:agent_id/tool-permissions/:action_id')[0]!.body).toEqual({
      mode: 'ask',
    });
    await waitFor(() => expect(select).toHaveValue('ask'));
    expect(within(section).queryByText(/Allowed from/)).toBeNull();
  });

  it('says so when the agent has no tool that changes data or sends', async () => {
    installFakeApi({
      'GET /api/v1/agents/': () => json([AGENT]),
      'GET /api/v1/agents/:agent_id/agent': () => json(AGENT),
      'GET /api/v1/agents/:agent_id/versions': () => json([]),
      'GET /api/v1/services/active': () => json([]),
      'GET /api/v1/agents/:agent_id/tool-permissions': () => json({ data: [] }),
    });
    renderApp('/agents/1/edit');
    expect(
      await screen.findByText('This agent has no tools that change data or send something.'),
    ).toBeInTheDocument();
  });
});
