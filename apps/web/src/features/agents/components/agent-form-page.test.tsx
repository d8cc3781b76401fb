import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { toaster } from '../../../components/ui/toaster';
import { held, installFakeApi, json, type ApiHandler } from '../../../test/fake-api';
import { findToast, renderApp } from '../../../test/render';
import type { Agent } from '../api/agents-api';
import { agentFixture } from '../../../test/agent-fixture';

const CALCULATOR = {
  id: 5,
  name: 'Calculator',
  description: 'Arithmetic',
  logo: null,
  status: 'ACTIVE',
  auth_schemes: ['NO_AUTH'],
};
const action = (id: number, display_name: string) => ({
  id,
  display_name,
  name: `CALCULATOR_${display_name.toUpperCase()}`,
  description: `${display_name} two numbers`,
  logo: null,
  app_name: 'Calculator',
});
const attached = (id: number, display_name: string, needs_reconnecting = false) => ({
  ...action(id, display_name),
  service_id: CALCULATOR.id,
  needs_reconnecting,
});
const ACTIONS = [action(11, 'Multiply'), action(12, 'Add'), action(13, 'Divide')];

const SAVED: Agent = agentFixture({
  id: 1,
  name: 'Bookkeeper',
  description: 'Does sums',
  guidelines: 'Be brief',
  tools: [attached(12, 'Add')],
});

function fakeApi(extra: Record<string, ApiHandler> = {}) {
  return installFakeApi({
    'GET /api/v1/agents/': () => json([SAVED]),
    'GET /api/v1/agents/:agent_id/agent': () => json(SAVED),
    'GET /api/v1/services/active': () => json([CALCULATOR]),
    'GET /api/v1/services/:service_id/actions': () => json(ACTIONS),
    ...extra,
  });
}

const field = (name: RegExp) => screen.getByRole('textbox', { name });

afterEach(() => toaster.remove());

describe('the agent form, create mode (/agents/create)', () => {
  it("refuses a blank name or description with 'Name/Description Required' for 3 s and sends nothing", async () => {
    const api = fakeApi();
    const { user, router } = renderApp('/agents/create');
    expect(await screen.findByRole('heading', { name: 'Create Agent' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await findToast('Name/Description Required')).toEqual({
      title: 'Name/Description Required',
      type: 'error',
      duration: 3000,
    });
    toaster.remove();
    await user.type(field(/^Name/), '   ');
    await user.type(field(/^Description/), 'Forecasts');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await findToast('Name/Description Required')).toMatchObject({ type: 'error' });
    expect(api.sent('POST /api/v1/agents/')).toEqual([]);
    expect(router.state.location.pathname).toBe('/agents/create');
  });

  it("saves with blank guidelines as null, toasts 'Agent Created' for 3 s and returns to the updated list", async () => {
    let list: Agent[] = [];
    const api = fakeApi({
      'GET /api/v1/agents/': () => json(list),
      'POST /api/v1/agents/': ({ body }) => {
        const created = { id: 7, tools: [], ...(body as Omit<Agent, 'id' | 'tools'>) };
        list = [created];
        return json(created, 201);
      },
    });
    const { user, router } = renderApp('/agents/create');
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), ' Weather Helper ');
    await user.type(field(/^Description/), 'Forecasts for any city');
    await user.type(field(/^Guidelines/), '   ');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await findToast('Agent Created')).toEqual({
      title: 'Agent Created',
      type: 'success',
      duration: 3000,
    });
    expect(api.sent('POST /api/v1/agents/').map((r) => r.body)).toEqual([
      {
        name: 'Weather Helper',
        description: 'Forecasts for any city',
        guidelines: null,
        icon: null,
        color: null,
        starters: [],
        tool_ids: [],
        allow_unattended_writes: false,
        api_writes: 'approve',
      },
    ]);
    // One key for this Save: the proxy's retry of the request cannot make a second agent.
    expect(api.sent('POST /api/v1/agents/')[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
    await waitFor(() => expect(router.state.location.pathname).toBe('/agents'));
    expect(await screen.findByRole('cell', { name: 'Weather Helper' })).toBeInTheDocument();
    expect(screen.queryByText('Loading agents...')).not.toBeInTheDocument();
  });

  it("offers 'Allow write actions in unattended runs' and the API's choice on an existing agent, says what each does and sends them", async () => {
    const api = fakeApi({
      'PATCH /api/v1/agents/:agent_id': ({ body }) => json({ ...SAVED, ...(body as object) }),
    });
    // A new agent has no trigger URL yet and starts with the defaults: both are the editor's.
    const created = renderApp('/agents/create');
    await screen.findByRole('textbox', { name: /^Name/ });
    expect(
      screen.queryByRole('checkbox', { name: 'Allow write actions in unattended runs' }),
    ).not.toBeInTheDocument();
    expect(
      screen.queryByRole('combobox', { name: 'Write actions asked through the API or MCP' }),
    ).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Triggers' })).not.toBeInTheDocument();
    created.unmount();

    const { user } = renderApp('/agents/1/edit');
    const setting = await screen.findByRole('checkbox', { name: 'Allow write actions in unattended runs' });
    expect(setting).not.toBeChecked();
    expect(setting).toHaveAccessibleDescription(
      /trigger’s run use write and send tools without anyone approving/,
    );
    const apiWrites = screen.getByRole('combobox', { name: 'Write actions asked through the API or MCP' });
    expect(apiWrites).toHaveValue('approve');
    expect(apiWrites).toHaveAccessibleDescription(/waits for your approval here .* or is refused/);
    expect(
      within(apiWrites)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Ask me to approve them in Cadre', 'Refuse them']);
    await user.click(setting);
    await user.selectOptions(apiWrites, 'Refuse them');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await findToast('Agent Updated');
    expect(api.sent('PATCH /api/v1/agents/:agent_id')[0]!.body).toMatchObject({
      allow_unattended_writes: true,
      api_writes: 'refuse',
    });
  });

  it("toasts 'Create Failed' - 'Failed to Create agent.' for 3 s when the API refuses, and stays", async () => {
    fakeApi({ 'POST /api/v1/agents/': () => json({ detail: 'nope', code: 'internal_error' }, 500) });
    const { user, router } = renderApp('/agents/create');
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Weather Helper');
    await user.type(field(/^Description/), 'Forecasts');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await findToast('Create Failed')).toEqual({
      title: 'Create Failed',
      description: 'Failed to Create agent.',
      type: 'error',
      duration: 3000,
    });
    expect(router.state.location.pathname).toBe('/agents/create');
    expect(field(/^Name/)).toHaveValue('Weather Helper');
  });

  it('sends the starters written, trimmed, leaving blank inputs out', async () => {
    const api = fakeApi({
      'POST /api/v1/agents/': ({ body }) => json({ ...SAVED, ...(body as object), id: 9 }, 201),
    });
    const { user } = renderApp('/agents/create');
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Helper');
    await user.type(field(/^Description/), 'Helps');
    expect(screen.getAllByRole('textbox', { name: /^Starter \d$/ })).toHaveLength(4);
    await user.type(field(/^Starter 1$/), '  What is 12 × 7? ');
    await user.type(field(/^Starter 3$/), 'Search the web for tents');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(
        api.sent('POST /api/v1/agents/').map((r) => (r.body as { starters: string[] }).starters),
      ).toEqual([['What is 12 × 7?', 'Search the web for tents']]),
    );
  });

  it('shows a starter over 120 characters as an error under its input and sends nothing', async () => {
    const api = fakeApi();
    const { user } = renderApp('/agents/create');
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Helper');
    await user.type(field(/^Description/), 'Helps');
    await user.click(field(/^Starter 2$/));
    await user.paste('x'.repeat(121));
    expect(field(/^Starter 2$/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('A starter must be at most 120 characters.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(field(/^Starter 2$/)).toHaveFocus());
    expect(api.sent('POST /api/v1/agents/')).toEqual([]);
  });

  it("shows the server's 422 for a starter under that input", async () => {
    fakeApi({
      'POST /api/v1/agents/': () =>
        json(
          {
            detail: [
              { loc: ['body', 'starters', 1], msg: 'must not contain NUL characters', type: 'custom' },
            ],
            code: 'validation_failed',
          },
          422,
        ),
    });
    const { user } = renderApp('/agents/create');
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Helper');
    await user.type(field(/^Description/), 'Helps');
    await user.type(field(/^Starter 1$/), 'Hi');
    await user.type(field(/^Starter 2$/), 'Odd');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Starter must not contain NUL characters')).toBeInTheDocument();
    expect(field(/^Starter 2$/)).toHaveAttribute('aria-invalid', 'true');
    expect(field(/^Starter 1$/)).not.toHaveAttribute('aria-invalid');
    await waitFor(() => expect(field(/^Starter 2$/)).toHaveFocus());
  });

  it("takes a name as long as the contract allows, and shows the server's 422 under its field, not in a toast", async () => {
    fakeApi({
      'POST /api/v1/agents/': () =>
        json(
          {
            detail: [
              { loc: ['body', 'name'], msg: 'must be at most 100 characters', type: 'too_big' },
              { loc: ['body', 'tool_ids', 0], msg: 'is not one of your tools', type: 'custom' },
            ],
            code: 'validation_failed',
          },
          422,
        ),
    });
    const { user } = renderApp('/agents/create');
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    expect(name).toHaveAttribute('maxLength', '100');
    await user.type(name, 'Helper');
    await user.type(field(/^Description/), 'Helps');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const message = await screen.findByText('must be at most 100 characters');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name.getAttribute('aria-describedby')?.split(' ')).toContain(message.id);
    await waitFor(() => expect(name).toHaveFocus());
    // An issue no field owns is said above Save.
    expect(screen.getByText('tool_ids.0: is not one of your tools')).toBeInTheDocument();
    expect(toaster.getVisibleToasts()).toEqual([]);
    await user.type(name, 's');
    expect(name).not.toHaveAttribute('aria-invalid');
  });

  it('explains Guidelines with the tooltip text of the spec', async () => {
    fakeApi();
    renderApp('/agents/create');
    expect(
      await screen.findByRole('button', {
        name: "Optionally provide guidelines for influencing the agent's behavior. Explain as precisely as possible.",
      }),
    ).toBeInTheDocument();
  });

  it("adds a service's actions with 'Action added' for 2 s (once per tool), groups them by app and removes them", async () => {
    const api = fakeApi({ 'POST /api/v1/agents/': () => json({ ...SAVED, id: 8 }, 201) });
    const { user } = renderApp('/agents/create');
    expect(await screen.findByText('Click on a service below to view and add tools.')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Calculator' }));
    const dialog = await screen.findByRole('dialog', { name: 'Actions for Calculator' });
    await within(dialog).findByRole('button', { name: 'Add Add' });
    // Sorted by display name.
    expect(
      within(dialog)
        .getAllByRole('button', { name: /^Add / })
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Add Add', 'Add Divide', 'Add Multiply']);
    // At most 400px of actions before the list scrolls (spec section 9).
    expect(getComputedStyle(within(dialog).getByTestId('actions-list')).maxHeight).toBe('400px');
    // The search looks at display names only, not at descriptions.
    const search = within(dialog).getByRole('searchbox', { name: 'Search actions...' });
    await user.type(search, 'two numbers');
    expect(await within(dialog).findByText('No actions match your search.')).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'multply');
    await waitFor(() => expect(within(dialog).queryByRole('button', { name: 'Add Add' })).toBeNull());
    await user.click(within(dialog).getByRole('button', { name: 'Add Multiply' }));
    expect(await findToast('Action added')).toEqual({
      title: 'Action added',
      description: 'Multiply added to agent',
      type: 'info',
      duration: 2000,
    });
    // An added tool shows as added: no second add, and it can be removed there.
    expect(within(dialog).queryByRole('button', { name: 'Add Multiply' })).toBeNull();
    expect(within(dialog).getByText('Added')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Remove Multiply' })).toBeInTheDocument();
    expect(toaster.getVisibleToasts()).toHaveLength(1);
    await user.clear(within(dialog).getByRole('searchbox', { name: 'Search actions...' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Add Divide' }));
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));

    const selected = await screen.findByTestId('selected-tools');
    expect(within(selected).getByText('Calculator')).toBeInTheDocument();
    await user.click(within(selected).getByRole('button', { name: 'Remove Divide' }));
    expect(within(selected).queryByText('Divide')).not.toBeInTheDocument();

    await user.type(field(/^Name/), 'Bookkeeper');
    await user.type(field(/^Description/), 'Does sums');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await findToast('Agent Created');
    expect(api.sent('POST /api/v1/agents/')[0]!.body).toMatchObject({ tool_ids: [11] });
  });
});

describe('the agent form points at the problem', () => {
  it('marks the blank fields, says what is missing under each and focuses the first, besides the toast', async () => {
    fakeApi();
    const { user } = renderApp('/agents/create');
    await screen.findByRole('heading', { name: 'Create Agent' });
    expect(field(/^Name/)).not.toHaveAttribute('aria-invalid');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await findToast('Name/Description Required');
    expect(field(/^Name/)).toHaveAttribute('aria-invalid', 'true');
    expect(field(/^Description/)).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(field(/^Name/)).toHaveFocus());
    expect(field(/^Name/)).toHaveAccessibleErrorMessage('Give the agent a name.');
    expect(field(/^Description/)).toHaveAccessibleErrorMessage('Describe what the agent does.');
    // Typing a name clears its mark; a Save now points at the description alone.
    await user.type(field(/^Name/), 'Weather Helper');
    expect(field(/^Name/)).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Give the agent a name.')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(field(/^Description/)).toHaveFocus());
    expect(field(/^Description/)).toHaveAttribute('aria-invalid', 'true');
  });

  it('removes a tool the agent already has from the actions dialog', async () => {
    fakeApi();
    const { user } = renderApp('/agents/1/edit');
    await screen.findByRole('heading', { name: 'Edit Bookkeeper' });
    await user.click(await screen.findByRole('button', { name: 'Calculator' }));
    const dialog = await screen.findByRole('dialog', { name: 'Actions for Calculator' });
    await user.click(await within(dialog).findByRole('button', { name: 'Remove Add' }));
    expect(await within(dialog).findByRole('button', { name: 'Add Add' })).toBeInTheDocument();
    expect(screen.queryByTestId('selected-tools')).not.toBeInTheDocument();
  });

  it("shows a tool whose service was disconnected as 'Needs reconnecting', with the way to reconnect", async () => {
    fakeApi({
      'GET /api/v1/agents/:agent_id/agent': () =>
        json({ ...SAVED, tools: [attached(12, 'Add', true)] } satisfies Agent),
    });
    renderApp('/agents/1/edit');
    await screen.findByRole('heading', { name: 'Edit Bookkeeper' });
    const selected = screen.getByTestId('selected-tools');
    expect(within(selected).getByText('Needs reconnecting')).toBeInTheDocument();
    expect(
      within(selected).getByRole('link', { name: 'Reconnect Calculator on the Services page' }),
    ).toHaveAttribute('href', '/services');
  });

  it('gives the agent an icon and a colour, previewed beside the heading and sent with the agent', async () => {
    const api = fakeApi({
      'PATCH /api/v1/agents/:agent_id': ({ body }) => json({ ...SAVED, ...(body as object) }),
    });
    const { user } = renderApp('/agents/1/edit');
    await screen.findByRole('heading', { name: 'Edit Bookkeeper' });
    const icons = screen.getByRole('radiogroup', { name: 'Icon' });
    expect(within(icons).getByRole('radio', { name: 'Initial' })).toBeChecked();
    await user.click(within(icons).getByRole('radio', { name: 'Emoji 🧮' }));
    expect(within(icons).getByRole('radio', { name: 'Emoji 🧮' })).toBeChecked();
    expect(within(icons).getByRole('radio', { name: 'Initial' })).not.toBeChecked();
    await user.click(
      within(screen.getByRole('radiogroup', { name: 'Colour' })).getByRole('radio', {
        name: 'Colour: purple',
      }),
    );
    expect(screen.getAllByTestId('agent-avatar')[0]).toHaveTextContent('🧮');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await findToast('Agent Updated');
    expect(api.sent('PATCH /api/v1/agents/:agent_id')[0]!.body).toMatchObject({
      icon: '🧮',
      color: 'purple',
    });
  });
});

describe('the agent form, update mode (/agents/{Id}/edit)', () => {
  it("is filled with the agent, sends the change and toasts 'Agent Updated' for 3 s", async () => {
    const api = fakeApi({
      'PATCH /api/v1/agents/:agent_id': ({ body }) => json({ ...SAVED, ...(body as object) }),
    });
    const { user, router } = renderApp('/agents/1/edit');
    expect(await screen.findByRole('heading', { name: 'Edit Bookkeeper' })).toBeInTheDocument();
    expect(field(/^Guidelines/)).toHaveValue('Be brief');
    await user.clear(field(/^Description/));
    await user.type(field(/^Description/), 'Keeps the books');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await findToast('Agent Updated')).toEqual({
      title: 'Agent Updated',
      type: 'success',
      duration: 3000,
    });
    expect(api.sent('PATCH /api/v1/agents/:agent_id').map((r) => [r.path, r.body])).toEqual([
      [
        '/api/v1/agents/1',
        {
          name: 'Bookkeeper',
          description: 'Keeps the books',
          guidelines: 'Be brief',
          icon: null,
          color: null,
          starters: [],
          tool_ids: [12],
          allow_unattended_writes: false,
          api_writes: 'approve',
        },
      ],
    ]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/agents'));
  });

  it("turns off 'Allow write actions in unattended runs' for an agent that had it", async () => {
    const api = fakeApi({
      'GET /api/v1/agents/:agent_id/agent': () => json({ ...SAVED, allow_unattended_writes: true }),
      'PATCH /api/v1/agents/:agent_id': ({ body }) => json({ ...SAVED, ...(body as object) }),
    });
    const { user } = renderApp('/agents/1/edit');
    const setting = await screen.findByRole('checkbox', { name: 'Allow write actions in unattended runs' });
    expect(setting).toBeChecked();
    await user.click(setting);
    expect(setting).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await findToast('Agent Updated');
    expect(api.sent('PATCH /api/v1/agents/:agent_id')[0]!.body).toMatchObject({
      allow_unattended_writes: false,
    });
  });

  it("toasts 'Update Failed' - 'Failed to Update agent.' for 3 s when the API refuses", async () => {
    fakeApi({
      'PATCH /api/v1/agents/:agent_id': () => json({ detail: 'nope', code: 'internal_error' }, 500),
    });
    const { user } = renderApp('/agents/1/edit');
    await screen.findByRole('heading', { name: 'Edit Bookkeeper' });
    await user.type(field(/^Name/), ' 2');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await findToast('Update Failed')).toEqual({
      title: 'Update Failed',
      description: 'Failed to Update agent.',
      type: 'error',
      duration: 3000,
    });
  });

  it('says so when the agent does not exist, with no retry', async () => {
    fakeApi({
      'GET /api/v1/agents/:agent_id/agent': () => json({ detail: 'Agent not found', code: 'not_found' }, 404),
    });
    renderApp('/agents/9/edit');
    expect(await screen.findByRole('heading', { name: 'Agent not found' })).toBeInTheDocument();
    expect(screen.getByText('This agent does not exist.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to agents' })).toHaveAttribute('href', '/agents');
  });

  it('loads the agent on "Try again" after a failure that ends inside the pending screen', async () => {
    // The loader's retry fails just after the router's pending screen appears (1 s), inside its
    // minimum display; the answer to "Try again" comes after the pending screen made way for the
    // page. Offered in the pending screen, that retry was cancelled by the swap and lost.
    const unavailable = () => json({ detail: 'Internal Server Error', code: 'internal_error' }, 500);
    const retried = held();
    const again = held();
    const answers = [unavailable, retried.handler, again.handler];
    const api = fakeApi({ 'GET /api/v1/agents/:agent_id/agent': () => answers.shift()!() });
    const { user } = renderApp('/agents/1/edit');
    await screen.findByRole('status', { name: 'Loading agent' }, { timeout: 3000 });
    retried.release(unavailable());
    await user.click(await screen.findByRole('button', { name: 'Try again' }, { timeout: 3000 }));
    await new Promise((resolve) => setTimeout(resolve, 600));
    again.release(json(SAVED));
    expect(await screen.findByRole('heading', { name: 'Edit Bookkeeper' })).toBeInTheDocument();
    expect(api.sent('GET /api/v1/agents/:agent_id/agent')).toHaveLength(3);
  });
});
