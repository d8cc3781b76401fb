import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toaster } from '../../../components/ui/toaster';
import { installFakeApi, json } from '../../../test/fake-api';
import { findToast, renderApp } from '../../../test/render';
import type { Agent } from '../api/agents-api';
import { agentFixture } from '../../../test/agent-fixture';

const AGENT: Agent = agentFixture({
  id: 7,
  name: 'Shop helper',
  description: 'Answers shoppers',
});

afterEach(() => {
  toaster.remove();
  vi.unstubAllGlobals();
});

const routes = (agent: () => Agent, patch?: (body: unknown) => Agent) => ({
  'GET /api/v1/agents/': () => json([agent()]),
  'GET /api/v1/agents/:agent_id/agent': () => json(agent()),
  'GET /api/v1/agents/:agent_id/versions': () => json([]),
  'GET /api/v1/services/active': () => json([]),
  'GET /api/v1/agents/:agent_id/tool-permissions': () => json({ data: [] }),
  'PATCH /api/v1/agents/:agent_id': ({ body }: { body: unknown }) =>
    patch ? json(patch(body)) : json({ detail: 'Not Found', code: 'internal_error' }, 500),
});

describe('the agent editor’s Embed section (/agents/:id/edit)', () => {
  it('adds a normalised origin, refuses a bad one, and saves only the origins', async () => {
    let current = AGENT;
    const api = installFakeApi(
      routes(
        () => current,
        (body) => (current = { ...current, ...(body as Partial<Agent>) }),
      ),
    );
    renderApp('/agents/7/edit?section=publish');
    const section = await screen.findByTestId('agent-embed');
    expect(within(section).getByText(/No origins yet/)).toBeInTheDocument();
    const input = within(section).getByRole('textbox', { name: 'Add an allowed origin' });

    await userEvent.type(input, 'http://shop.example/page');
    await userEvent.click(within(section).getByRole('button', { name: 'Add' }));
    expect(within(section).getByText(/Enter an origin like/)).toBeInTheDocument();

    await userEvent.clear(input);
    await userEvent.type(input, 'https://Shop.Example/');
    await userEvent.click(within(section).getByRole('button', { name: 'Add' }));
    expect(within(section).getByText('https://shop.example')).toBeInTheDocument();
    await userEvent.click(within(section).getByRole('button', { name: 'Update allowed origins' }));
    await findToast('Allowed origins saved.');
    expect(api.sent('PATCH /api/v1/agents/:agent_id')[0]!.body).toEqual({
      embed_origins: ['https://shop.example'],
    });
    // The snippets name this server, the agent and its first origin.
    await waitFor(() =>
      expect(within(section).getByLabelText('Host backend').textContent).toContain(
        '"origin": "https://shop.example"',
      ),
    );
    expect(within(section).getByLabelText('Host page').textContent).toContain(
      '<script src="http://app.test/chainlit/copilot/index.js"></script>',
    );
    expect(within(section).getByTestId('mcp-url').textContent).toMatch(/\/mcp\/7$/);
    expect(JSON.parse(within(section).getByLabelText('MCP clients').textContent!)).toEqual({
      mcpServers: {
        'shop-helper': {
          type: 'http',
          url: expect.stringMatching(/\/mcp\/7$/),
          headers: { Authorization: 'Bearer cadre_...' },
        },
      },
    });
  });

  it('removes an origin, and says so when the save fails', async () => {
    installFakeApi(routes(() => ({ ...AGENT, embed_origins: ['https://a.example', 'https://b.example'] })));
    renderApp('/agents/7/edit?section=publish');
    const section = await screen.findByTestId('agent-embed');
    await userEvent.click(await within(section).findByRole('button', { name: 'Remove https://a.example' }));
    expect(within(section).queryByText('https://a.example')).toBeNull();
    await userEvent.click(within(section).getByRole('button', { name: 'Update allowed origins' }));
    expect(await within(section).findByText(/could not be saved/)).toBeInTheDocument();
  });
});
