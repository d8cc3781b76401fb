import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { installFakeApi, json } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

const ASSISTANT = {
  id: 'assistant',
  name: 'Assistant',
  description: 'Does sums and keeps notes.',
  icon: '🧮',
  color: 'blue',
  starters: ['What is 12 times 7?'],
  services: ['Calculator', 'Notes'],
};
const CALENDAR = { ...ASSISTANT, id: 'calendar', name: 'Calendar planner', services: ['Calendar'] };

const templates = (readyAssistant: string | null) => () =>
  json({ templates: [ASSISTANT, CALENDAR], ready_assistant: readyAssistant });
const created = () =>
  json({
    agent: { id: 9, name: 'Assistant', description: 'Does sums.', guidelines: null, tools: [], starters: [] },
    tools_to_connect: [],
    tools_not_found: [],
    model_not_offered: null,
    files: [],
  });

describe('agent templates', () => {
  it('a new account is offered the ready assistant on /info: one press creates it and opens its chat', async () => {
    const api = installFakeApi({
      'GET /api/v1/agent-templates/': templates('assistant'),
      'GET /api/v1/agents/': () => json([]),
      'POST /api/v1/agent-templates/:id/agents': created,
    });
    const { user, router } = renderApp('/info');
    const offer = await screen.findByRole('region', { name: 'Start chatting right away' });
    expect(offer).toHaveTextContent('Calculator, Notes');
    await user.click(within(offer).getByRole('button', { name: 'Start chatting' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/agents/9/chat'));
    const [sent] = api.sent('POST /api/v1/agent-templates/:id/agents');
    expect(sent!.path).toBe('/api/v1/agent-templates/assistant/agents');
    // A retry of this request by the network makes one agent.
    expect(sent!.headers['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
  });

  it('no offer once the person has an agent', async () => {
    installFakeApi({
      'GET /api/v1/agent-templates/': templates('assistant'),
      'GET /api/v1/agents/': () => json([{ id: 3, name: 'Mine', description: 'x', tools: [] }]),
    });
    renderApp('/info');
    await screen.findByRole('list', { name: 'Agent templates' });
    expect(screen.queryByRole('button', { name: 'Start chatting' })).toBeNull();
  });

  it('no offer when READY_ASSISTANT is off; the templates stay', async () => {
    installFakeApi({
      'GET /api/v1/agent-templates/': templates(null),
      'GET /api/v1/agents/': () => json([]),
    });
    renderApp('/info');
    const gallery = await screen.findByRole('list', { name: 'Agent templates' });
    expect(within(gallery).getByRole('button', { name: 'Try Calendar planner' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Start chatting' })).toBeNull();
  });

  it('the Agents screen shows the gallery; a template opens its chat', async () => {
    installFakeApi({
      'GET /api/v1/agent-templates/': templates('assistant'),
      'GET /api/v1/agents/': () => json([]),
      'POST /api/v1/agent-templates/:id/agents': created,
    });
    const { user, router } = renderApp('/agents');
    const section = await screen.findByRole('region', { name: 'Start from a template' });
    await user.click(await within(section).findByRole('button', { name: 'Try Calendar planner' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/agents/9/chat'));
  });
});
