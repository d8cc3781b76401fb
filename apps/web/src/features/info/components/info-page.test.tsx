import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { installFakeApi } from '../../../test/fake-api';
import { findToast, renderApp } from '../../../test/render';

describe('the Info page (/info)', () => {
  it("lists the spec's example agents, each with the services it needs and whether they need a key", async () => {
    installFakeApi();
    renderApp('/info');
    const heading = await screen.findByRole('heading', { name: 'Example agents' });
    const section = heading.closest('section')!;
    const items = within(section)
      .getAllByRole('listitem')
      .map((item) => item.textContent ?? '');
    expect(items.map((text) => text.split(':')[0])).toEqual([
      'Mail and internet search',
      'Place search',
      'Calendar management',
      'HackerNews and YouTube search',
    ]);
    expect(items[0]).toContain('Web Search (needs a Brave Search API key)');
    expect(items[0]).toContain('Cadre has no built-in mail service');
    expect(items[1]).toContain('needs a Google Maps Platform API key');
    expect(items[2]).toContain('Calendar needs no account');
    expect(items[3]).toContain('Hacker News needs no account');
    expect(items[3]).toContain('YouTube Data API');
    expect(section).not.toHaveTextContent('The built-in services they use need no account');
  });

  it("'Delete my data' asks for DELETE to be typed, as the user menu does, before deleting", async () => {
    const api = installFakeApi({ 'DELETE /api/v1/users/me': () => new Response(null, { status: 204 }) });
    const { user } = renderApp('/info');
    await user.click(await screen.findByRole('button', { name: 'Delete my data' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete my data' });
    const remove = within(dialog).getByRole('button', { name: 'Delete my account' });
    expect(remove).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Type DELETE to confirm'), 'DELET');
    expect(remove).toBeDisabled();
    await user.keyboard('{Enter}');
    expect(api.sent('DELETE /api/v1/users/me')).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Type DELETE to confirm'), 'E');
    await user.click(remove);
    expect(await findToast('Data deleted')).toMatchObject({ type: 'success' });
    expect(api.sent('DELETE /api/v1/users/me')).toHaveLength(1);
  });
});
