import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toaster } from '../../../components/ui/toaster';
import { held, installFakeApi, json, pagedList, TEST_TOKEN } from '../../../test/fake-api';
import { installIntersectionObserver } from '../../../../../../test-support/intersection-observer';
import { pickMenuItem } from '../../../test/menus';
import { findToast, renderApp } from '../../../test/render';
import type { Agent } from '../api/agents-api';
import { agentFixture } from '../../../test/agent-fixture';
import { hasText, watchFor } from '../../../test/ever-shown';

const agent = (id: number, name: string, description: string, tools = 0): Agent =>
  agentFixture({
    id,
    name,
    description,
    guidelines: 'Be brief',
    tools: Array.from({ length: tools }, (_, i) => ({
      id: 100 + i,
      display_name: `Tool ${i}`,
      name: `TOOL_${i}`,
      description: `Does thing ${i}`,
      logo: null,
      app_name: 'Calculator',
      service_id: 5,
      needs_reconnecting: false,
    })),
  });

const MAIL = agent(1, 'Mail Sorter', 'Files incoming mail into folders', 2);
const WEATHER = agent(2, 'Weather Helper', 'Forecasts for any city');

const rows = () => screen.queryAllByTestId('agent-row');
const row = (name: string) => rows().find((r) => within(r).queryByRole('cell', { name }))!;

/** Picks an item of an agent's Actions menu. */
const openMenu = (user: ReturnType<typeof renderApp>['user'], name: string, item: string) =>
  pickMenuItem(user, screen.getByRole('button', { name: `Actions for ${name}` }), item);

afterEach(() => {
  toaster.remove();
  vi.unstubAllGlobals();
});

describe('the agent list (/agents)', () => {
  it("shows 'Loading agents...' once a first load outlasts the 1 s pending delay, then the rows", async () => {
    const list = held();
    installFakeApi({ 'GET /api/v1/agents/': list.handler });
    const started = performance.now();
    renderApp('/agents');
    // Not before the pending delay (a busy machine may show it later, never sooner).
    expect(await screen.findByText('Loading agents...')).toBeInTheDocument();
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
    list.release(json([MAIL]));
    // The rows show first in the pending screen, which the route then swaps for the page itself
    // (the same list): a row found in the first may be gone by the next line, so wait on the screen.
    await waitFor(() => expect(screen.getByRole('cell', { name: 'Mail Sorter' })).toBeInTheDocument());
    expect(screen.queryByText('Loading agents...')).not.toBeInTheDocument();
  });

  it('is fetched when a link to it is pointed at, and paints with its rows, no loading state, after the click', async () => {
    const api = installFakeApi({
      'GET /api/v1/agents/': () => json([MAIL, WEATHER]),
      'GET /api/v1/agents/:agent_id/agent': () => json({ detail: 'Agent not found', code: 'not_found' }, 404),
    });
    const { user } = renderApp('/agents/99/edit');
    const link = await screen.findByRole('link', { name: 'Back to agents' });
    await user.hover(link);
    await waitFor(() => expect(api.sent('GET /api/v1/agents/')).toHaveLength(1));
    const loading = watchFor(hasText('Loading agents...'));
    await user.click(link);
    await screen.findByRole('heading', { name: 'Agents', level: 1 });
    expect(rows()).toHaveLength(2);
    loading.stop();
    expect(loading.seen).toBe(false);
    // The preloaded answer is fresh: the page did not ask again.
    expect(api.sent('GET /api/v1/agents/')).toHaveLength(1);
    expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
  });

  it('after a click straight away, keeps the page it leaves until the list can paint with its rows', async () => {
    const api = installFakeApi({
      'GET /api/v1/agents/': () => json([MAIL, WEATHER]),
      'GET /api/v1/agents/:agent_id/agent': () => json({ detail: 'Agent not found', code: 'not_found' }, 404),
    });
    const { user } = renderApp('/agents/99/edit');
    const link = await screen.findByRole('link', { name: 'Back to agents' });
    const loading = watchFor(hasText('Loading agents...'));
    await user.click(link);
    await screen.findByRole('heading', { name: 'Agents', level: 1 });
    expect(rows()).toHaveLength(2);
    loading.stop();
    expect(loading.seen).toBe(false);
    expect(api.sent('GET /api/v1/agents/')).toHaveLength(1);
  });

  it("says 'No agents found.' and offers 'Create an agent!' when there are none", async () => {
    installFakeApi({ 'GET /api/v1/agents/': () => json([]) });
    renderApp('/agents');
    expect(await screen.findByText('No agents found.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create an agent!' })).toHaveAttribute('href', '/agents/create');
    expect(screen.getByRole('link', { name: 'Create New Agent' })).toHaveAttribute('href', '/agents/create');
  });

  it("says 'Error loading agents.' when the list cannot be loaded", async () => {
    const api = installFakeApi({
      'GET /api/v1/agents/': () => json({ detail: 'down', code: 'internal_error' }, 500),
    });
    renderApp('/agents');
    expect(await screen.findByText('Error loading agents.', {}, { timeout: 4000 })).toBeInTheDocument();
    expect(rows()).toHaveLength(0);
    expect(screen.getByRole('link', { name: 'Create New Agent' })).toBeInTheDocument();
    // The loader tried (once more after the first failure); the page did not start over.
    expect(api.sent('GET /api/v1/agents/')).toHaveLength(2);
  });

  it("shows each agent's icon in its colour and marks tools that need reconnecting, with the way there", async () => {
    const stale: Agent = {
      ...MAIL,
      icon: '📬',
      color: 'purple',
      tools: MAIL.tools.map((tool, i) => ({
        ...tool,
        app_name: i ? 'Notes' : 'Calculator',
        needs_reconnecting: i === 1,
      })),
    };
    installFakeApi({ 'GET /api/v1/agents/': () => json([stale, WEATHER]) });
    const { user } = renderApp('/agents');
    await screen.findByRole('cell', { name: 'Mail Sorter' });
    expect(within(row('Mail Sorter')).getByTestId('agent-avatar')).toHaveTextContent('📬');
    // No icon chosen: the name's initial.
    expect(within(row('Weather Helper')).getByTestId('agent-avatar')).toHaveTextContent('W');
    expect(
      within(row('Mail Sorter')).getByRole('link', {
        name: 'Needs reconnecting: Reconnect Notes on the Services page',
      }),
    ).toHaveAttribute('href', '/services');
    expect(within(row('Weather Helper')).queryByText('Needs reconnecting')).not.toBeInTheDocument();
    await user.click(within(row('Mail Sorter')).getByRole('button', { name: '2 Tools of Mail Sorter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tools of Mail Sorter' });
    expect(within(dialog).getAllByText('Needs reconnecting')).toHaveLength(1);
    expect(
      within(dialog).getByRole('link', { name: 'Reconnect Notes on the Services page' }),
    ).toBeInTheDocument();
  });

  it('lists name, truncated description and a tools button that opens the tools', async () => {
    installFakeApi({ 'GET /api/v1/agents/': () => json([MAIL, WEATHER]) });
    const { user } = renderApp('/agents');
    await screen.findByRole('cell', { name: 'Mail Sorter' });
    expect(within(row('Mail Sorter')).getByRole('cell', { name: MAIL.description })).toHaveAttribute(
      'title',
      MAIL.description,
    );
    expect(
      within(row('Weather Helper')).getByRole('button', { name: '0 Tools of Weather Helper' }),
    ).toBeVisible();
    await user.click(within(row('Mail Sorter')).getByRole('button', { name: '2 Tools of Mail Sorter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tools of Mail Sorter' });
    expect(within(dialog).getByText('Tool 0')).toBeInTheDocument();
    expect(within(dialog).getByText('Does thing 1')).toBeInTheDocument();
  });

  it('searches name and description with a typo allowed, and shows the empty state for no match', async () => {
    installFakeApi({ 'GET /api/v1/agents/': () => json([MAIL, WEATHER]) });
    const { user } = renderApp('/agents');
    await screen.findByRole('cell', { name: 'Mail Sorter' });
    const search = screen.getByRole('searchbox', { name: 'Search agents' });
    await user.type(search, 'forcasts');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(row('Weather Helper')).toBeDefined();
    await user.clear(search);
    await user.type(search, 'zzzqqq');
    expect(await screen.findByText('No agents found.')).toBeInTheDocument();
  });

  it("duplicates as '{name} (Copy)' without guidelines, toasts 'Agent created successfully.' for 3 s and lists it", async () => {
    const copy = { ...MAIL, id: 3, name: 'Mail Sorter (Copy)', guidelines: null };
    let list = [MAIL];
    const api = installFakeApi({
      'GET /api/v1/agents/': () => json(list),
      'POST /api/v1/agents/': () => {
        list = [MAIL, copy];
        return json(copy, 201);
      },
    });
    const { user } = renderApp('/agents');
    await screen.findByRole('cell', { name: 'Mail Sorter' });
    await openMenu(user, 'Mail Sorter', 'Duplicate');
    expect(await findToast('Agent created successfully.')).toEqual({
      title: 'Agent created successfully.',
      type: 'success',
      duration: 3000,
    });
    expect(api.sent('POST /api/v1/agents/').map((r) => r.body)).toEqual([
      {
        name: 'Mail Sorter (Copy)',
        description: MAIL.description,
        guidelines: null,
        starters: [],
        tool_ids: [100, 101],
        duplicated_from: 1,
      },
    ]);
    expect(await screen.findByRole('cell', { name: 'Mail Sorter (Copy)' })).toBeInTheDocument();
  });

  it("toasts 'Failed to create agent.' for 3 s when the copy is refused", async () => {
    installFakeApi({
      'GET /api/v1/agents/': () => json([MAIL]),
      'POST /api/v1/agents/': () => json({ detail: 'no', code: 'internal_error' }, 500),
    });
    const { user } = renderApp('/agents');
    await screen.findByRole('cell', { name: 'Mail Sorter' });
    await openMenu(user, 'Mail Sorter', 'Duplicate');
    expect(await findToast('Failed to create agent.')).toEqual({
      title: 'Failed to create agent.',
      type: 'error',
      duration: 3000,
    });
    expect(rows()).toHaveLength(1);
  });

  it("deletes after the confirmation, toasts 'Agent deleted successfully.' for 3 s and drops the row", async () => {
    let list = [MAIL, WEATHER];
    const api = installFakeApi({
      'GET /api/v1/agents/': () => json(list),
      'DELETE /api/v1/agents/:agent_id': () => {
        list = [MAIL];
        return new Response(null, { status: 204 });
      },
    });
    const { user } = renderApp('/agents');
    await screen.findByRole('cell', { name: 'Weather Helper' });
    await openMenu(user, 'Weather Helper', 'Delete');
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent('Weather Helper');
    expect(api.sent('DELETE /api/v1/agents/:agent_id')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await findToast('Agent deleted successfully.')).toEqual({
      title: 'Agent deleted successfully.',
      type: 'success',
      duration: 3000,
    });
    expect(api.sent('DELETE /api/v1/agents/:agent_id').map((r) => r.path)).toEqual(['/api/v1/agents/2']);
    await waitFor(() => expect(rows()).toHaveLength(1));
  });

  it("toasts 'Failed to delete agent.' for 3 s when the delete is refused, and keeps the row", async () => {
    installFakeApi({
      'GET /api/v1/agents/': () => json([MAIL]),
      'DELETE /api/v1/agents/:agent_id': () => json({ detail: 'no', code: 'internal_error' }, 500),
    });
    const { user } = renderApp('/agents');
    await screen.findByRole('cell', { name: 'Mail Sorter' });
    await openMenu(user, 'Mail Sorter', 'Delete');
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await findToast('Failed to delete agent.')).toEqual({
      title: 'Failed to delete agent.',
      type: 'error',
      duration: 3000,
    });
    expect(rows()).toHaveLength(1);
  });
});

describe('the agent list in pages', () => {
  // More than two pages of 50; one agent far down the list has a name nothing else resembles.
  const many = Array.from({ length: 120 }, (_, i) =>
    i === 109 ? agent(110, 'Zebra Keeper', 'Feeds the zebras') : agent(i + 1, `Agent ${i + 1}`, 'A helper'),
  );
  const queries = (api: ReturnType<typeof installFakeApi>) =>
    api.sent('GET /api/v1/agents/').map((r) => new URL(r.path, 'http://x').search);

  it('shows the first 50, the next 50 when the end of the list scrolls into view, and the rest on "Load more"', async () => {
    const view = installIntersectionObserver();
    const api = installFakeApi({ 'GET /api/v1/agents/': pagedList(() => many) });
    const { user } = renderApp('/agents');
    await screen.findByRole('cell', { name: 'Agent 1' });
    expect(rows()).toHaveLength(50);
    expect(queries(api)).toEqual(['?limit=50']);

    await view.scrollIntoView(screen.getByTestId('load-more'));
    await waitFor(() => expect(rows()).toHaveLength(100));
    expect(queries(api)).toEqual(['?limit=50', '?limit=50&cursor=50']);
    expect(rows()[99]).toHaveTextContent('Agent 100');

    await user.click(await screen.findByRole('button', { name: 'Load more agents' }));
    await waitFor(() => expect(rows()).toHaveLength(120));
    // The last page was short: there is no other, so nothing offers one.
    expect(screen.queryByTestId('load-more')).not.toBeInTheDocument();
    expect(queries(api)).toHaveLength(3);
  });

  it('keeps the rows shown when the next page fails, says so, and loads it on "Try again"', async () => {
    installIntersectionObserver();
    let down = true;
    const pages = pagedList(() => many);
    installFakeApi({
      'GET /api/v1/agents/': (request) =>
        down && request.path.includes('cursor=')
          ? json({ detail: 'down', code: 'internal_error' }, 500)
          : pages(request),
    });
    const { user } = renderApp('/agents');
    await screen.findByRole('cell', { name: 'Agent 1' });
    await user.click(screen.getByRole('button', { name: 'Load more agents' }));
    // One more try first (the app's retry), then the failure shows under the rows, which stay.
    expect(await screen.findByText('Could not load more agents.', {}, { timeout: 4000 })).toBeInTheDocument();
    expect(rows()).toHaveLength(50);
    expect(screen.queryByText('Error loading agents.')).not.toBeInTheDocument();

    down = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(rows()).toHaveLength(100));
    expect(screen.queryByText('Could not load more agents.')).not.toBeInTheDocument();
  });

  it('searches every agent, not only the pages loaded: a search loads the rest', async () => {
    installIntersectionObserver();
    const api = installFakeApi({ 'GET /api/v1/agents/': pagedList(() => many) });
    const { user } = renderApp('/agents');
    await screen.findByRole('cell', { name: 'Agent 1' });
    await user.type(screen.getByRole('searchbox', { name: 'Search agents' }), 'zebra');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(row('Zebra Keeper')).toBeDefined();
    expect(queries(api)).toEqual(['?limit=50', '?limit=50&cursor=50', '?limit=50&cursor=100']);
    // Cleared, the list shows everything it loaded.
    await user.clear(screen.getByRole('searchbox', { name: 'Search agents' }));
    await waitFor(() => expect(rows()).toHaveLength(120));
  });
});
