import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { DEMO_NAMES } from '../constants';
import { DemosRedirectPage } from './demos-redirect-page';

afterEach(() => vi.unstubAllGlobals());

describe('/public/demosRedirect', () => {
  it('allows exactly the three demos', () => {
    expect(DEMO_NAMES).toEqual(['vcdemo', 'customerservicedemo', 'salesoutreachdemo']);
  });

  it.each([undefined, 'otherdemo', 'VCDEMO'])(
    "shows 'Invalid Demo' for %s and calls nothing",
    async (demo) => {
      const fetchMock = vi.fn();
      vi.stubGlobal('fetch', fetchMock);
      const navigate = vi.fn();
      renderWithProviders(<DemosRedirectPage demo={demo} navigate={navigate} />);
      expect(await screen.findByText('Invalid Demo')).toBeInTheDocument();
      expect(screen.queryByText('Redirecting...')).not.toBeInTheDocument();
      expect(fetchMock).not.toHaveBeenCalled();
      expect(navigate).not.toHaveBeenCalled();
    },
  );

  it("offers the valid demos and a way back to Cadre under 'Invalid Demo'", async () => {
    vi.stubGlobal('fetch', vi.fn());
    renderWithProviders(<DemosRedirectPage demo="nodemo" navigate={vi.fn()} />);
    const demos = await screen.findByRole('navigation', { name: 'Demos' });
    expect(
      within(demos)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Try the VC analyst demo', '/public/demosRedirect?demo=vcdemo'],
      ['Try the Customer support demo', '/public/demosRedirect?demo=customerservicedemo'],
      ['Try the Sales outreach demo', '/public/demosRedirect?demo=salesoutreachdemo'],
    ]);
    expect(screen.getByRole('link', { name: '← Go to Cadre' })).toHaveAttribute('href', '/');
  });

  it('logs out (error ignored), logs in as anonymous-user with the demo as password, then leaves', async () => {
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockRejectedValueOnce(new TypeError('cross-origin'))
      .mockResolvedValueOnce(new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const navigate = vi.fn();
    renderWithProviders(<DemosRedirectPage demo="customerservicedemo" navigate={navigate} />);
    expect(screen.getByText('Redirecting...')).toBeInTheDocument();
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('http://app.test/demos/'));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(fetchMock.mock.calls[0]).toEqual([
      'http://app.test/demos/logout',
      { method: 'POST', credentials: 'include' },
    ]);
    const [url, init] = fetchMock.mock.calls[1]!;
    expect(url).toBe('http://app.test/demos/login');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('include');
    const form = init?.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect(form.get('username')).toBe('anonymous-user');
    expect(form.get('password')).toBe('customerservicedemo');
  });
});
