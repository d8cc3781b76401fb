import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { installFakeApi, json } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';

const tool = (id: number, display_name: string, description: string, logo: string | null = null) => ({
  id,
  display_name,
  name: `WEB_${display_name.toUpperCase().replace(/ /g, '_')}`,
  description,
  logo,
  app_name: 'Web Search',
});

describe("a service's tools (/services/{Id}/actions)", () => {
  it('shows the app, a Name/Description table and searches name and description', async () => {
    const api = installFakeApi({
      'GET /api/v1/services/:service_id/actions': () =>
        json([tool(1, 'Search the web', 'Finds pages'), tool(2, 'Search news', 'Recent articles')]),
    });
    const { user } = renderApp('/services/2/actions');
    expect(await screen.findByRole('heading', { name: 'Web Search' })).toBeInTheDocument();
    expect(screen.getByText('No Logo')).toBeInTheDocument();
    const table = screen.getByRole('table');
    expect(within(table).getByRole('columnheader', { name: 'Name' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Description' })).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(api.sent('GET /api/v1/services/:service_id/actions')[0]!.path).toBe('/api/v1/services/2/actions');

    await user.type(screen.getByRole('searchbox', { name: 'Search tools...' }), 'articles');
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(within(table).getByRole('cell', { name: 'Search news' })).toBeInTheDocument();
    await user.clear(screen.getByRole('searchbox', { name: 'Search tools...' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search tools...' }), 'zzzz-none');
    expect(await within(table).findByText('No tools match your search.')).toBeInTheDocument();
  });

  it("says 'Unknown App' and 'No Logo' for a service without tools", async () => {
    installFakeApi({ 'GET /api/v1/services/:service_id/actions': () => json([]) });
    renderApp('/services/3/actions');
    expect(await screen.findByRole('heading', { name: 'Unknown App' })).toBeInTheDocument();
    expect(screen.getByText('No Logo')).toBeInTheDocument();
    expect(screen.getByText('This service has no tools.')).toBeInTheDocument();
  });
});
