import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toaster } from '../../../components/ui/toaster';
import { held, installFakeApi, json, pagedList, type ApiHandler } from '../../../test/fake-api';
import { installIntersectionObserver } from '../../../../../../test-support/intersection-observer';
import { watchFor } from '../../../test/ever-shown';
import { findToast, renderApp } from '../../../test/render';
import type { Service } from '../api/services-api';

const service = (
  id: number,
  name: string,
  scheme: string,
  status: Service['status'] = 'INACTIVE',
  usage: Pick<Service, 'last_used_at' | 'last_error'> = { last_used_at: null, last_error: null },
): Service => ({
  id,
  name,
  description: `${name} for your agents`,
  logo: null,
  status,
  auth_schemes: [scheme],
  ...usage,
});

const CALCULATOR = service(1, 'Calculator', 'NO_AUTH');
const SEARCH = service(2, 'Web Search', 'API_KEY');
const GMAIL = service(3, 'Gmail', 'OAUTH2');
const SLACK = service(4, 'Slack', 'OAUTH2', 'ACTIVE');

function fakeApi(routes: Record<string, ApiHandler> = {}, list = [CALCULATOR, SEARCH, GMAIL, SLACK]) {
  return installFakeApi({ 'GET /api/v1/services/': () => json(list), ...routes });
}

const card = (name: string) => screen.getByRole('listitem', { name });

afterEach(() => {
  toaster.remove();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the services page (/services)', () => {
  it('shows the loading state once a first load outlasts the pending delay, then the cards', async () => {
    const list = held();
    installFakeApi({ 'GET /api/v1/services/': list.handler });
    renderApp('/services');
    expect(await screen.findByRole('status', { name: 'Loading services' })).toBeInTheDocument();
    list.release(json([CALCULATOR]));
    // The pending screen shows the cards first, then the route swaps in the page: wait on the screen.
    await waitFor(() => expect(screen.getByRole('listitem', { name: 'Calculator' })).toBeInTheDocument());
  });

  // After navigation the list paints with its cards and never shows its loading state: the route's
  // loader fetched it when the link was pointed at (and the page does not ask again), or, after a
  // click straight away, the router keeps the page it leaves until the list is there.
  it.each([
    ['after the link was pointed at', true],
    ['after a click straight away', false],
  ])('paints with its cards, no loading state, %s', async (_when, preload) => {
    const api = fakeApi({ 'GET /api/v1/services/:service_id/actions': () => json([]) });
    const { user } = renderApp('/services/2/actions');
    // The actions page's link back to the list (the sidebar has one named alike).
    const link = await within(await screen.findByRole('main')).findByRole('link', { name: 'Services' });
    if (preload) {
      await user.hover(link);
      await waitFor(() => expect(api.sent('GET /api/v1/services/')).toHaveLength(1));
    }
    const loading = watchFor(() => screen.queryByRole('status', { name: 'Loading services' }) !== null);
    await user.click(link);
    await screen.findByRole('heading', { name: 'Services', level: 1 });
    expect(screen.getAllByTestId('service-card')).toHaveLength(4);
    loading.stop();
    expect(loading.seen).toBe(false);
    expect(api.sent('GET /api/v1/services/')).toHaveLength(1);
  });

  it("says 'Error loading services.' and loads again on Retry", async () => {
    let up = false;
    fakeApi({
      'GET /api/v1/services/': () =>
        up ? json([CALCULATOR]) : json({ detail: 'down', code: 'internal_error' }, 500),
    });
    const { user } = renderApp('/services');
    expect(await screen.findByText('Error loading services.')).toBeInTheDocument();
    up = true;
    // The page's own retry of the failed load may still be running (the button is busy then, and
    // that request was sent while the server was down): click once it is done.
    const retry = screen.getByRole('button', { name: 'Retry' });
    await waitFor(() => expect(retry).toBeEnabled());
    await user.click(retry);
    expect(await screen.findByRole('listitem', { name: 'Calculator' })).toBeInTheDocument();
  });

  it("lists active services first, then by name, each with 'Status: {status} | Auth: {scheme}'", async () => {
    fakeApi();
    renderApp('/services');
    await screen.findByRole('listitem', { name: 'Slack' });
    expect(screen.getAllByTestId('service-card').map((c) => c.getAttribute('aria-label'))).toEqual([
      'Slack',
      'Calculator',
      'Gmail',
      'Web Search',
    ]);
    expect(within(card('Slack')).getByText('Status: ACTIVE | Auth: OAUTH2')).toBeInTheDocument();
    expect(within(card('Web Search')).getByText('Status: INACTIVE | Auth: API_KEY')).toBeInTheDocument();
    expect(
      within(card('Slack')).getByRole('button', { name: 'Disconnect Service Slack' }),
    ).toBeInTheDocument();
    expect(within(card('Gmail')).getByRole('link', { name: 'View Tools of Gmail' })).toHaveAttribute(
      'href',
      '/services/3/actions',
    );
  });

  it("searches 'Search services...' on name and description", async () => {
    fakeApi({}, [CALCULATOR, { ...SEARCH, description: 'Finds pages on the web' }, GMAIL, SLACK]);
    const { user } = renderApp('/services');
    await screen.findByRole('listitem', { name: 'Slack' });
    const search = screen.getByRole('searchbox', { name: 'Search services...' });
    await user.type(search, 'calculatr');
    await waitFor(() => expect(screen.getAllByTestId('service-card')).toHaveLength(1));
    expect(card('Calculator')).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'pages on the web');
    await waitFor(() => expect(screen.getAllByTestId('service-card')).toHaveLength(1));
    expect(card('Web Search')).toBeInTheDocument();
  });

  it("registers a no-auth service at once: 'Service Registered Successfully' for 5 s and the list again", async () => {
    let list = [CALCULATOR];
    const api = fakeApi({
      'GET /api/v1/services/': () => json(list),
      'POST /api/v1/services/:service_id/register_noauth_service': () => {
        list = [{ ...CALCULATOR, status: 'ACTIVE' }];
        return json({ connectionStatus: 'ACTIVE' });
      },
    });
    const { user } = renderApp('/services');
    await user.click(await screen.findByRole('button', { name: 'Register Service Calculator' }));
    expect(await findToast('Service Registered Successfully')).toEqual({
      title: 'Service Registered Successfully',
      description: 'The service "Calculator" is now active.',
      type: 'success',
      duration: 5000,
    });
    expect(api.sent('POST /api/v1/services/:service_id/register_noauth_service')).toMatchObject([
      { path: '/api/v1/services/1/register_noauth_service', body: undefined },
    ]);
    expect(await within(card('Calculator')).findByText('Status: ACTIVE | Auth: NO_AUTH')).toBeInTheDocument();
  });

  it("asks for an API key: 'API Key Required' for 5 s when blank, then sends it trimmed", async () => {
    const api = fakeApi({
      'POST /api/v1/services/:service_id/register_api_service': () => json({ connectionStatus: 'ACTIVE' }),
    });
    const { user } = renderApp('/services');
    await user.click(await screen.findByRole('button', { name: 'Register Service Web Search' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enter API Key' });
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await findToast('API Key Required')).toEqual({
      title: 'API Key Required',
      description: 'Please enter an API Key to proceed.',
      type: 'error',
      duration: 5000,
    });
    expect(api.sent('POST /api/v1/services/:service_id/register_api_service')).toEqual([]);
    await user.type(within(dialog).getByLabelText('API Key for Web Search'), '  sk-123  ');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Enter API Key' })).toBeNull());
    expect(await findToast('Service Registered Successfully')).toMatchObject({
      description: 'The service "Web Search" is now active.',
    });
    expect(api.sent('POST /api/v1/services/:service_id/register_api_service')).toMatchObject([
      { path: '/api/v1/services/2/register_api_service', body: { api_key: 'sk-123' } },
    ]);
  });

  it('keeps the dialog open with the provider’s refusal under the field when the key is refused, and saves nothing', async () => {
    let refuse = true;
    const api = fakeApi({
      'POST /api/v1/services/:service_id/register_api_service': () =>
        refuse
          ? json(
              {
                detail: [
                  {
                    loc: ['body', 'api_key'],
                    msg: 'Brave Search refused this API key (401)',
                    type: 'key_refused',
                  },
                ],
                code: 'validation_failed',
              },
              422,
            )
          : json({ redirectUrl: null, connectionStatus: 'ACTIVE' }),
    });
    const { user } = renderApp('/services');
    await user.click(await screen.findByRole('button', { name: 'Register Service Web Search' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enter API Key' });
    const input = within(dialog).getByLabelText('API Key for Web Search');
    await user.type(input, 'sk-wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(input).toHaveAccessibleErrorMessage('Brave Search refused this API key (401)'),
    );
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveFocus();
    expect(input).toHaveValue('sk-wrong');
    expect(await findToast('Failed to register Web Search by API key.')).toMatchObject({ type: 'error' });
    // Behind the open dialog, the card is still not connected.
    const behind = screen.getByRole('listitem', { name: 'Web Search', hidden: true });
    expect(within(behind).getByText('Status: INACTIVE | Auth: API_KEY')).toBeInTheDocument();

    // Typing clears the refusal; the right key closes the dialog.
    await user.clear(input);
    expect(input).not.toHaveAttribute('aria-invalid');
    refuse = false;
    await user.type(input, 'sk-right');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Enter API Key' })).toBeNull());
    expect(api.sent('POST /api/v1/services/:service_id/register_api_service')).toMatchObject([
      { body: { api_key: 'sk-wrong' } },
      { body: { api_key: 'sk-right' } },
    ]);
  });

  it('says when the provider could not be asked, in the dialog', async () => {
    fakeApi({
      'POST /api/v1/services/:service_id/register_api_service': () =>
        json(
          {
            detail:
              'Brave Search could not be reached to check this API key (timed out); nothing was saved, try again',
          },
          502,
        ),
    });
    const { user } = renderApp('/services');
    await user.click(await screen.findByRole('button', { name: 'Register Service Web Search' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enter API Key' });
    const input = within(dialog).getByLabelText('API Key for Web Search');
    await user.type(input, 'sk-1');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(input).toHaveAccessibleErrorMessage(
        'Brave Search could not be reached to check this API key (timed out); nothing was saved, try again',
      ),
    );
  });

  it('shows when each connection was last used and its last error; services not connected show neither', async () => {
    const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
    fakeApi({}, [
      service(1, 'Calculator', 'NO_AUTH', 'ACTIVE'),
      service(2, 'Web Search', 'API_KEY', 'ACTIVE', {
        last_used_at: minutesAgo(5),
        last_error: {
          message: 'Brave Search answered HTTP 429: rate limited, try again later',
          at: minutesAgo(5),
        },
      }),
      service(3, 'Weather', 'API_KEY', 'ACTIVE', { last_used_at: minutesAgo(120), last_error: null }),
      // Expired: no longer active, but it still says when it was used and why it failed.
      service(4, 'Gmail', 'OAUTH2', 'INACTIVE', {
        last_used_at: minutesAgo(60 * 24),
        last_error: { message: 'Gmail answered HTTP 401', at: minutesAgo(60 * 24) },
      }),
      service(5, 'Slack', 'OAUTH2'),
    ]);
    renderApp('/services');
    const calculator = await screen.findByRole('listitem', { name: 'Calculator' });
    expect(within(calculator).getByText('Never used')).toBeInTheDocument();
    expect(calculator).toHaveAccessibleDescription('Never used');

    const search = card('Web Search');
    expect(within(search).getByText(/^Last used/)).toHaveTextContent('Last used 5 minutes ago');
    expect(within(search).getByText(/^Last error/)).toHaveTextContent(
      'Last error 5 minutes ago: Brave Search answered HTTP 429: rate limited, try again later',
    );
    expect(search).toHaveAccessibleDescription(
      'Last used 5 minutes ago Last error 5 minutes ago: Brave Search answered HTTP 429: rate limited, try again later',
    );
    const exact = within(search).getAllByText('5 minutes ago')[0]!;
    expect(exact.tagName).toBe('TIME');
    expect(exact).toHaveAttribute('dateTime', expect.stringMatching(/^\d{4}-\d\d-\d\dT/));

    expect(within(card('Weather')).getByText(/^Last used/)).toHaveTextContent('Last used 2 hours ago');
    expect(within(card('Weather')).queryByText(/^Last error/)).toBeNull();
    expect(within(card('Gmail')).getByText(/^Last error/)).toHaveTextContent(
      'Last error yesterday: Gmail answered HTTP 401',
    );
    const slack = card('Slack');
    expect(within(slack).queryByTestId('connection-usage')).toBeNull();
    expect(slack).not.toHaveAttribute('aria-describedby');
  });

  it("says 'Registration Error' for 5 s when the service did not become active", async () => {
    fakeApi({
      'POST /api/v1/services/:service_id/register_api_service': () => json({ connectionStatus: 'FAILED' }),
    });
    const { user } = renderApp('/services');
    await user.click(await screen.findByRole('button', { name: 'Register Service Web Search' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enter API Key' });
    await user.type(within(dialog).getByLabelText('API Key for Web Search'), 'sk-bad');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await findToast('Registration Error')).toEqual({
      title: 'Registration Error',
      description: 'The service "Web Search" didn\'t become active.',
      type: 'error',
      duration: 5000,
    });
  });

  it('opens the OAuth page in a new tab, without a toast', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    fakeApi({
      'POST /api/v1/services/:service_id/register_auth_service': () =>
        json({ redirectUrl: 'https://accounts.example.com/auth?x=1', connectionStatus: 'INITIATED' }),
    });
    const { user } = renderApp('/services');
    await user.click(await screen.findByRole('button', { name: 'Register Service Gmail' }));
    await waitFor(() =>
      expect(open).toHaveBeenCalledWith(
        'https://accounts.example.com/auth?x=1',
        '_blank',
        'noopener,noreferrer',
      ),
    );
    expect(toaster.getVisibleToasts()).toEqual([]);
  });

  it.each([
    ['Web Search', 'register_api_service', 'Failed to register Web Search by API key.'],
    ['Gmail', 'register_auth_service', 'Failed to register Gmail via Auth.'],
    ['Calculator', 'register_noauth_service', 'Failed to register Calculator without authentication.'],
  ])('a failed registration of %s (%s) shows "%s" for 5 s', async (name, call, text) => {
    fakeApi({
      [`POST /api/v1/services/:service_id/${call}`]: () =>
        json({ detail: 'upstream', code: 'provider_error' }, 502),
    });
    const { user } = renderApp('/services');
    await user.click(await screen.findByRole('button', { name: `Register Service ${name}` }));
    if (name === 'Web Search') {
      const dialog = await screen.findByRole('dialog', { name: 'Enter API Key' });
      await user.type(within(dialog).getByLabelText('API Key for Web Search'), 'sk-1');
      await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    }
    expect(await findToast(text)).toEqual({ title: text, type: 'error', duration: 5000 });
  });

  it("disconnects after a confirmation: 'Service Disconnected' for 5 s, or 'Failed to disconnect {name}.'", async () => {
    let fail = false;
    const api = fakeApi({
      'DELETE /api/v1/services/:service_id/disconnect_composio_service': () =>
        fail ? json({ detail: 'no', code: 'internal_error' }, 500) : new Response(null, { status: 204 }),
      'GET /api/v1/agents/': () => json([]),
    });
    const { user } = renderApp('/services');
    await user.click(await screen.findByRole('button', { name: 'Disconnect Service Slack' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Disconnect Slack?' });
    expect(await within(dialog).findByText('No agent uses it.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    expect(await findToast('Service Disconnected')).toEqual({
      title: 'Service Disconnected',
      description: 'The service "Slack" has been disconnected.',
      type: 'success',
      duration: 5000,
    });
    expect(api.sent('DELETE /api/v1/services/:service_id/disconnect_composio_service')[0]!.path).toBe(
      '/api/v1/services/4/disconnect_composio_service',
    );
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    fail = true;
    await user.click(screen.getByRole('button', { name: 'Disconnect Service Slack' }));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: 'Disconnect Slack?' })).getByRole('button', {
        name: 'Disconnect',
      }),
    );
    expect(await findToast('Failed to disconnect Slack.')).toEqual({
      title: 'Failed to disconnect Slack.',
      type: 'error',
      duration: 5000,
    });
  });

  it('names the agents that use the service before disconnecting, and Cancel keeps it', async () => {
    const tool = ({ id, name }: Service) => ({
      id: 1,
      name: 't',
      display_name: 'T',
      description: '',
      logo: null,
      app_name: name,
      service_id: id,
      needs_reconnecting: false,
    });
    const agent = (id: number, name: string, services: Service[]) => ({
      id,
      name,
      description: '',
      guidelines: null,
      tools: services.map(tool),
    });
    // Someone's own MCP server that happens to be called Slack too: another service.
    const ownSlack = service(9, 'Slack', 'NO_AUTH', 'ACTIVE');
    const api = fakeApi({
      'GET /api/v1/agents/': () =>
        json([
          agent(1, 'Standup bot', [SLACK]),
          agent(2, 'Calculator helper', [CALCULATOR]),
          agent(3, 'Announcer', [GMAIL, SLACK]),
          agent(4, 'Bridge', [ownSlack]),
        ]),
    });
    const { user } = renderApp('/services');
    await user.click(await screen.findByRole('button', { name: 'Disconnect Service Slack' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Disconnect Slack?' });
    expect(await within(dialog).findByText('Used by 2 agents:')).toBeInTheDocument();
    const names = within(within(dialog).getByRole('list', { name: 'Agents that use it' })).getAllByRole(
      'listitem',
    );
    expect(names.map((n) => n.textContent)).toEqual(['Announcer', 'Standup bot']);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(api.sent('DELETE /api/v1/services/:service_id/disconnect_composio_service')).toHaveLength(0);
  });

  it('keeps the order of the cards while the pointer is over the grid, and sorts again once it leaves', async () => {
    let slackActive = true;
    fakeApi({
      'GET /api/v1/services/': () =>
        json([CALCULATOR, SEARCH, GMAIL, { ...SLACK, status: slackActive ? 'ACTIVE' : 'INACTIVE' }]),
      'DELETE /api/v1/services/:service_id/disconnect_composio_service': () => {
        slackActive = false;
        return new Response(null, { status: 204 });
      },
      'GET /api/v1/agents/': () => json([]),
    });
    const { user } = renderApp('/services');
    const order = () => screen.getAllByTestId('service-card').map((c) => c.getAttribute('aria-label'));
    await screen.findByRole('listitem', { name: 'Slack' });
    await user.hover(screen.getByTestId('services-grid'));
    await user.click(screen.getByRole('button', { name: 'Disconnect Service Slack' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Disconnect Slack?' });
    await user.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    await findToast('Service Disconnected');
    await waitFor(() =>
      expect(
        within(card('Slack')).getByRole('button', { name: 'Register Service Slack' }),
      ).toBeInTheDocument(),
    );
    expect(order()).toEqual(['Slack', 'Calculator', 'Gmail', 'Web Search']);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    await user.hover(screen.getByTestId('services-grid'));
    await user.hover(screen.getByRole('heading', { name: 'Services' }));
    (document.activeElement as HTMLElement | null)?.blur();
    await waitFor(() => expect(order()).toEqual(['Calculator', 'Gmail', 'Slack', 'Web Search']));
  });

  it('disables every Register and Disconnect button while any operation is pending', async () => {
    const registration = held();
    fakeApi({ 'POST /api/v1/services/:service_id/register_noauth_service': registration.handler });
    const { user } = renderApp('/services');
    await user.click(await screen.findByRole('button', { name: 'Register Service Calculator' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Disconnect Service Slack' })).toBeDisabled(),
    );
    expect(screen.getByRole('button', { name: 'Register Service Gmail' })).toBeDisabled();
    registration.release(json({}));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Register Service Gmail' })).toBeEnabled());
  });

  it('loads the list again when the tab becomes visible', async () => {
    const api = fakeApi();
    renderApp('/services');
    await screen.findByRole('listitem', { name: 'Slack' });
    expect(api.sent('GET /api/v1/services/')).toHaveLength(1);
    document.dispatchEvent(new Event('visibilitychange'));
    await waitFor(() => expect(api.sent('GET /api/v1/services/')).toHaveLength(2));
  });
});

describe('the services page in pages', () => {
  // The catalogue in the API's order (connected first, then by name), a page and a bit of it.
  const catalogue = [
    SLACK,
    ...Array.from({ length: 69 }, (_, i) =>
      service(10 + i, `Service ${String(i + 1).padStart(3, '0')}`, 'NO_AUTH'),
    ),
  ];
  const cards = () => screen.queryAllByTestId('service-card');

  it('shows the first 50 cards and the rest when the end of the grid scrolls into view', async () => {
    const view = installIntersectionObserver();
    const api = installFakeApi({ 'GET /api/v1/services/': pagedList(() => catalogue) });
    renderApp('/services');
    await screen.findByRole('listitem', { name: 'Slack' });
    expect(cards()).toHaveLength(50);
    await view.scrollIntoView(screen.getByTestId('load-more'));
    await waitFor(() => expect(cards()).toHaveLength(70));
    expect(cards().at(-1)).toHaveAccessibleName('Service 069');
    expect(api.sent('GET /api/v1/services/').map((r) => new URL(r.path, 'http://x').search)).toEqual([
      '?limit=50',
      '?limit=50&cursor=50',
    ]);
    expect(screen.queryByTestId('load-more')).not.toBeInTheDocument();
  });

  it('keeps the cards shown when the next page fails, and loads it on "Try again"', async () => {
    installIntersectionObserver();
    let down = true;
    const pages = pagedList(() => catalogue);
    installFakeApi({
      'GET /api/v1/services/': (request) =>
        down && request.path.includes('cursor=')
          ? json({ detail: 'down', code: 'internal_error' }, 500)
          : pages(request),
    });
    const { user } = renderApp('/services');
    await screen.findByRole('listitem', { name: 'Slack' });
    await user.click(screen.getByRole('button', { name: 'Load more services' }));
    expect(
      await screen.findByText('Could not load more services.', {}, { timeout: 4000 }),
    ).toBeInTheDocument();
    expect(cards()).toHaveLength(50);
    expect(screen.queryByText('Error loading services.')).not.toBeInTheDocument();
    down = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(cards()).toHaveLength(70));
  });

  it('searches the whole catalogue: a search loads the pages not loaded yet', async () => {
    installIntersectionObserver();
    installFakeApi({ 'GET /api/v1/services/': pagedList(() => catalogue) });
    const { user } = renderApp('/services');
    await screen.findByRole('listitem', { name: 'Slack' });
    await user.click(screen.getByRole('searchbox', { name: 'Search services...' }));
    await user.paste('Service 066');
    expect(await screen.findByRole('listitem', { name: 'Service 066' })).toBeInTheDocument();
  });
});
