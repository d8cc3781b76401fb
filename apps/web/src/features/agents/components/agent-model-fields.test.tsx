import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { toaster } from '../../../components/ui/toaster';
import { installFakeApi, json, type ApiHandler } from '../../../test/fake-api';
import { findToast, renderApp } from '../../../test/render';
import type { Agent } from '../api/agents-api';
import { agentFixture } from '../../../test/agent-fixture';

const MODELS = [
  {
    id: 'alpha',
    label: 'Alpha',
    provider: 'openai',
    context_window: 128000,
    input_price_per_million: 0.15,
    output_price_per_million: 0.6,
    default: true,
  },
  {
    id: 'beta',
    label: 'Beta',
    provider: 'anthropic',
    context_window: null,
    input_price_per_million: null,
    output_price_per_million: null,
    default: false,
  },
  {
    id: 'offline',
    label: 'Offline model',
    provider: 'offline',
    context_window: null,
    input_price_per_million: 0,
    output_price_per_million: 0,
    default: false,
  },
];

const SAVED: Agent = agentFixture({
  id: 1,
  name: 'Bookkeeper',
  description: 'Does sums',
});

function fakeApi(agent: Agent = SAVED, extra: Record<string, ApiHandler> = {}) {
  return installFakeApi({
    'GET /api/v1/agents/': () => json([agent]),
    'GET /api/v1/agents/:agent_id/agent': () => json(agent),
    'GET /api/v1/services/active': () => json([]),
    'GET /api/v1/models': () => json(MODELS),
    'PATCH /api/v1/agents/:agent_id': ({ body }) => json({ ...agent, ...(body as object) }),
    ...extra,
  });
}

const modelSelect = () => screen.findByRole('combobox', { name: 'Model' });
const temperature = () => screen.getByRole('spinbutton', { name: /^Temperature/ });

afterEach(() => toaster.remove());

describe("the agent editor's model and temperature", () => {
  it('lists the offered models with the default marked, and saves the chosen one with a temperature', async () => {
    const api = fakeApi();
    const { user } = renderApp('/agents/1/edit');
    const select = await modelSelect();
    expect(select).toHaveValue('');
    expect([...(select as HTMLSelectElement).options].map((o) => o.text)).toEqual([
      'Default (Alpha)',
      'Alpha (default)',
      'Beta',
      'Offline model',
    ]);
    await user.selectOptions(select, 'alpha');
    expect(
      screen.getByText('128,000 tokens of context · 0.15 in / 0.6 out per million tokens'),
    ).toBeVisible();
    await user.selectOptions(select, 'beta');
    await user.type(temperature(), '0.7');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await findToast('Agent Updated');
    expect(api.sent('PATCH /api/v1/agents/:agent_id')[0]!.body).toMatchObject({
      model_id: 'beta',
      temperature: 0.7,
    });
  });

  it('refuses a temperature outside 0-2 with a message, and sends nothing', async () => {
    const api = fakeApi();
    const { user } = renderApp('/agents/1/edit');
    await modelSelect();
    await user.type(temperature(), '2.5');
    expect(screen.getByText(/Temperature must be a number from 0 to 2/)).toBeVisible();
    expect(temperature()).toHaveAttribute('aria-invalid', 'true');
    expect(temperature()).toHaveAccessibleDescription(/Temperature must be a number from 0 to 2/);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    // Save moves the focus back to the field that stops it.
    await waitFor(() => expect(temperature()).toHaveFocus());
    expect(api.sent('PATCH /api/v1/agents/:agent_id')).toEqual([]);
  });

  it("warns when the agent's model is no longer offered, and does not send it back unchanged", async () => {
    const api = fakeApi({ ...SAVED, model_id: 'retired', temperature: 1, model_available: false });
    const { user } = renderApp('/agents/1/edit');
    expect(await modelSelect()).toHaveValue('retired');
    expect(
      screen.getByText(
        "This agent's model 'retired' is no longer offered; it answers with the default (Alpha). Choose a model and save.",
      ),
    ).toBeVisible();
    expect(temperature()).toHaveValue(1);
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), ' 2');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await findToast('Agent Updated');
    const body = api.sent('PATCH /api/v1/agents/:agent_id')[0]!.body as object;
    expect(body).not.toHaveProperty('model_id');
    expect(body).not.toHaveProperty('temperature');
  });

  it('shows when the models cannot be loaded, retries, and still saves the rest of the form', async () => {
    let fail = true;
    const api = fakeApi(SAVED, {
      'GET /api/v1/models': () =>
        fail ? json({ detail: 'down', code: 'internal_error' }, 500) : json(MODELS),
    });
    const { user } = renderApp('/agents/1/edit');
    expect(await screen.findByText('The models could not be loaded.', {}, { timeout: 4000 })).toBeVisible();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await modelSelect()).toBeVisible();
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), ' 2');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.sent('PATCH /api/v1/agents/:agent_id')).toHaveLength(1));
  });
});
