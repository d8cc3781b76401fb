import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { installFakeApi, json } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';
import { agentFixture } from '../../../test/agent-fixture';

const AGENT = agentFixture({ id: 7, name: 'Shop helper', description: 'Answers shoppers' });

const fakeApi = () =>
  installFakeApi({
    'GET /api/v1/agents/': () => json([AGENT]),
    'GET /api/v1/agents/:agent_id/agent': () => json(AGENT),
    'GET /api/v1/agents/:agent_id/versions': () => json([]),
    'GET /api/v1/agents/:agent_id/files': () => json([]),
    'GET /api/v1/services/active': () => json([]),
    'GET /api/v1/agents/:agent_id/tool-permissions': () => json({ data: [] }),
  });

const sections = () => screen.getByRole('navigation', { name: 'Agent sections' });

describe('the agent editor in sections (/agents/:id/edit)', () => {
  it('opens the section its link names, marks it current, and shows only it', async () => {
    fakeApi();
    renderApp('/agents/7/edit?section=publish');
    await screen.findByRole('heading', { name: 'Edit Shop helper' });
    expect(within(sections()).getByRole('link', { name: 'Publish' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByTestId('agent-embed')).toBeVisible();
    expect(screen.queryByRole('textbox', { name: /^Name/ })).toBeNull();
    expect(within(sections()).getByRole('link', { name: 'Knowledge' })).toHaveAttribute(
      'href',
      '/agents/7/edit?section=knowledge',
    );
  });

  it('keeps unsaved changes across sections without asking to discard them', async () => {
    fakeApi();
    const { user, router } = renderApp('/agents/7/edit');
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    await user.clear(name);
    await user.type(name, 'Renamed');
    await user.click(within(sections()).getByRole('link', { name: 'History' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ section: 'history' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await user.click(within(sections()).getByRole('link', { name: 'Configure' }));
    expect(await screen.findByRole('textbox', { name: /^Name/ })).toHaveValue('Renamed');
  });

  it('an unknown section opens Configure', async () => {
    fakeApi();
    renderApp('/agents/7/edit?section=nonsense');
    expect(await screen.findByRole('textbox', { name: /^Name/ })).toBeVisible();
    expect(within(sections()).getByRole('link', { name: 'Configure' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });
});
