import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toaster } from '../../../components/ui/toaster';
import { BUILDER_PROFILE, installFakeApi, json } from '../../../test/fake-api';
import { pickMenuItem } from '../../../test/menus';
import { renderApp } from '../../../test/render';
import type { ApiKey } from '../api/api-keys-api';

const KEY: ApiKey = {
  id: 7,
  name: 'CI deploy',
  prefix: 'cadre_AbCdEf',
  scopes: ['agents:read', 'chat'],
  agent_ids: [1],
  allowed_origins: [],
  created_at: '2026-01-02T03:04:05.000Z',
  last_used_at: null,
  expires_at: null,
};
const AGENTS = [
  { id: 1, name: 'Mail Sorter', description: 'd', guidelines: null, tools: [] },
  { id: 2, name: 'Planner', description: 'd', guidelines: null, tools: [] },
];
const SECRET = `cadre_${'x'.repeat(43)}`;

afterEach(() => toaster.remove());

describe('the API keys page (/api-keys)', () => {
  it('is reachable from the user menu and lists keys with their prefix, scopes and agents', async () => {
    installFakeApi({
      'GET /api/v1/api-keys': () => json([KEY]),
      'GET /api/v1/agents/': () => json(AGENTS),
    });
    const { user } = renderApp('/services');
    await screen.findByRole('heading', { name: 'Services' });
    await pickMenuItem(
      user,
      screen.getAllByRole('button', { name: 'Account menu of Mock User' })[0]!,
      'API keys',
    );
    const row = await screen.findByRole('row', { name: 'CI deploy' });
    expect(row).toHaveTextContent('cadre_AbCdEf…');
    expect(row).toHaveTextContent('agents:read');
    expect(row).toHaveTextContent('chat');
    await waitFor(() => expect(row).toHaveTextContent('Mail Sorter'));
    expect(row).toHaveTextContent('Never');
  });

  it("shows a member's key kept from before with its origins and Revoke, but no way to widen it", async () => {
    installFakeApi({
      'GET /api/v1/users/me': () => json({ ...BUILDER_PROFILE, role: 'member' }),
      'GET /api/v1/api-keys': () => json([{ ...KEY, allowed_origins: ['https://app.example'] }]),
      'GET /api/v1/agents/': () => json(AGENTS),
    });
    renderApp('/api-keys');
    const row = await screen.findByRole('row', { name: 'CI deploy' });
    expect(row).toHaveTextContent('https://app.example');
    expect(within(row).getByRole('button', { name: 'Revoke CI deploy' })).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'Edit allowed origins of CI deploy' })).toBeNull();
  });

  it('creates a key with the chosen scopes and agents and shows it once with a copy button', async () => {
    let keys: ApiKey[] = [];
    const api = installFakeApi({
      'GET /api/v1/api-keys': () => json(keys),
      'GET /api/v1/agents/': () => json(AGENTS),
      'POST /api/v1/api-keys': () => {
        keys = [{ ...KEY, id: 8, name: 'Site', scopes: ['copilot:mint'], agent_ids: [2] }];
        return json({ ...keys[0], key: SECRET }, 201);
      },
    });
    const { user } = renderApp('/api-keys');
    expect(await screen.findByText('You have no API keys.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create API key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create API key' });
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Site');
    await user.click(within(dialog).getByRole('checkbox', { name: /copilot:mint/ }));
    await user.click(await within(dialog).findByRole('checkbox', { name: 'Planner' }));
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Expires' }), 'Never');
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));

    const shown = await screen.findByRole('dialog', { name: 'Your new API key' });
    expect(within(shown).getByTestId('new-api-key')).toHaveTextContent(SECRET);
    expect(api.sent('POST /api/v1/api-keys').map((r) => r.body)).toEqual([
      { name: 'Site', scopes: ['copilot:mint'], agent_ids: [2] },
    ]);
    // A key made for this submission: a retry of the request shows the same new key, not a second.
    expect(api.sent('POST /api/v1/api-keys')[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
    await user.click(within(shown).getByRole('button', { name: 'Copy key' }));
    expect(await within(shown).findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('row', { name: 'Site' })).toBeInTheDocument();
    // Once closed, the key is nowhere on the page.
    expect(document.body).not.toHaveTextContent(SECRET);
  });

  it('marks what is wrong under its field, focused, before sending and after the API refuses', async () => {
    const api = installFakeApi({
      'GET /api/v1/api-keys': () => json([]),
      'GET /api/v1/agents/': () => json(AGENTS),
      'POST /api/v1/api-keys': () =>
        json(
          {
            detail: [
              { loc: ['body', 'agent_ids', 0], msg: 'is not one of your agents', type: 'value_error' },
              { loc: ['body'], msg: 'Too many keys', type: 'value_error' },
            ],
            code: 'validation_failed',
          },
          422,
        ),
    });
    const { user } = renderApp('/api-keys');
    await user.click(await screen.findByRole('button', { name: 'Create API key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create API key' });
    const name = within(dialog).getByRole('textbox', { name: /Name/ });
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleErrorMessage('Give the key a name, to tell it apart later.');
    await waitFor(() => expect(name).toHaveFocus());
    expect(within(dialog).getByText('Choose at least one scope.')).toBeInTheDocument();
    expect(within(dialog).getByRole('checkbox', { name: /chat/ })).toHaveAttribute('aria-invalid', 'true');
    expect(api.sent('POST /api/v1/api-keys')).toHaveLength(0);

    await user.type(name, 'Site');
    expect(name).not.toHaveAttribute('aria-invalid');
    await user.click(within(dialog).getByRole('checkbox', { name: /chat/ }));
    expect(within(dialog).queryByText('Choose at least one scope.')).not.toBeInTheDocument();
    const planner = await within(dialog).findByRole('checkbox', { name: 'Planner' });
    await user.click(planner);
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(await within(dialog).findByText('is not one of your agents')).toBeInTheDocument();
    expect(planner).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(within(dialog).getByRole('checkbox', { name: 'Mail Sorter' })).toHaveFocus());
    // What is about no field is said once, below the fields.
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Too many keys');
    expect(api.sent('POST /api/v1/api-keys')).toHaveLength(1);
  });

  it('edits the origins a key may be used from in a browser, and marks one the API refuses', async () => {
    let keys = [KEY];
    const api = installFakeApi({
      'GET /api/v1/api-keys': () => json(keys),
      'GET /api/v1/agents/': () => json(AGENTS),
      'PATCH /api/v1/api-keys/:api_key_id': (request) => {
        const origins = (request.body as { allowed_origins: string[] }).allowed_origins;
        if (origins.includes('*')) {
          return json(
            {
              detail: [{ loc: ['body', 'allowed_origins', 1], msg: 'must be an origin', type: 'custom' }],
              code: 'validation_failed',
            },
            422,
          );
        }
        keys = [{ ...KEY, allowed_origins: origins }];
        return json(keys[0]);
      },
    });
    const { user } = renderApp('/api-keys');
    const row = await screen.findByRole('row', { name: 'CI deploy' });
    expect(row).toHaveTextContent('None (code only)');
    await user.click(within(row).getByRole('button', { name: 'Edit allowed origins of CI deploy' }));
    const dialog = await screen.findByRole('dialog', { name: 'Allowed origins of "CI deploy"' });
    const origins = within(dialog).getByRole('textbox', { name: /Origins/ });
    await user.type(origins, 'https://app.example{Enter}*');
    await user.click(within(dialog).getByRole('button', { name: 'Save origins' }));
    expect(await within(dialog).findByText('must be an origin')).toBeInTheDocument();
    expect(origins).toHaveAttribute('aria-invalid', 'true');
    await user.clear(origins);
    await user.type(origins, ' https://app.example {Enter}{Enter}https://b.example');
    await user.click(within(dialog).getByRole('button', { name: 'Save origins' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.sent('PATCH /api/v1/api-keys/:api_key_id').map((r) => r.body)).toEqual([
      { allowed_origins: ['https://app.example', '*'] },
      { allowed_origins: ['https://app.example', 'https://b.example'] },
    ]);
    await waitFor(() => expect(row).toHaveTextContent('https://app.example, https://b.example'));
  });

  it('revokes a key after confirmation', async () => {
    let keys = [KEY];
    const api = installFakeApi({
      'GET /api/v1/api-keys': () => json(keys),
      'GET /api/v1/agents/': () => json(AGENTS),
      'DELETE /api/v1/api-keys/:api_key_id': () => {
        keys = [];
        return json(null, 204);
      },
    });
    const { user } = renderApp('/api-keys');
    await user.click(await screen.findByRole('button', { name: 'Revoke CI deploy' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Revoke API key' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('You have no API keys.')).toBeInTheDocument();
    expect(api.sent('DELETE /api/v1/api-keys/:api_key_id').map((r) => r.path)).toEqual([
      '/api/v1/api-keys/7',
    ]);
  });

  it('says it is loading, then says once that the keys could not be loaded, with a retry', async () => {
    let fail = true;
    installFakeApi({
      'GET /api/v1/api-keys': () =>
        fail ? json({ detail: 'down', code: 'internal_error' }, 500) : json([KEY]),
      'GET /api/v1/agents/': () => json(AGENTS),
    });
    const { user } = renderApp('/api-keys');
    expect(await screen.findByText('Loading API keys...')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByText('Error loading API keys.')).toHaveLength(1), {
      timeout: 10_000,
    });
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('row', { name: 'CI deploy' })).toBeInTheDocument();
    expect(screen.queryByText('Error loading API keys.')).not.toBeInTheDocument();
  });

  it('tells the person when a revoke fails, and keeps the key and the dialog', async () => {
    installFakeApi({
      'GET /api/v1/api-keys': () => json([KEY]),
      'GET /api/v1/agents/': () => json(AGENTS),
      'DELETE /api/v1/api-keys/:api_key_id': () =>
        json({ detail: 'Service temporarily unavailable', code: 'db_unavailable' }, 503),
    });
    const toast = vi.spyOn(toaster, 'create');
    const { user } = renderApp('/api-keys');
    await user.click(await screen.findByRole('button', { name: 'Revoke CI deploy' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Revoke API key' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith(
        expect.objectContaining({
          title: 'Revoke failed',
          description: 'The key "CI deploy" was not revoked; it still works. Try again.',
          type: 'error',
        }),
      ),
    );
    const stillOpen = screen.getByRole('alertdialog', { name: 'Revoke API key' });
    await user.click(within(stillOpen).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('row', { name: 'CI deploy' })).toBeInTheDocument();
  });
});
