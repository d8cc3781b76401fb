import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { toaster } from '../../../components/ui/toaster';
import { BUILDER_PROFILE, installFakeApi, json, pagedList } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';
import type { AccessCode, Person } from '../api/admin-api';

const ADMIN = { ...BUILDER_PROFILE, role: 'admin' } as const;
const person = (id: number, name: string, extra: Partial<Person> = {}): Person => ({
  id,
  email: `${name.toLowerCase()}@example.com`,
  name,
  picture: null,
  role: 'builder',
  disabled_at: null,
  created_at: '2026-01-01T00:00:00Z',
  last_active_at: null,
  groups: [],
  month_tokens: 1234,
  month_cost: 0.5,
  ...extra,
});

afterEach(() => toaster.remove());

describe('the admin console (/admin)', () => {
  it('lists people with role, groups and usage; an admin changes a role and disables an account', async () => {
    let people = [
      person(1, 'Ada', { role: 'admin' }),
      person(2, 'Bob', { groups: [{ id: 3, name: 'Sales', source: 'oidc' }] }),
    ];
    const api = installFakeApi({
      'GET /api/v1/users/me': () => json(ADMIN),
      'GET /api/v1/admin/people': pagedList(() => people),
      'PATCH /api/v1/admin/people/:user_id': ({ params, body }) => {
        const change = body as { role?: Person['role']; disabled?: boolean };
        people = people.map((p) =>
          p.id === Number(params.user_id)
            ? {
                ...p,
                ...(change.role && { role: change.role }),
                ...(change.disabled !== undefined && {
                  disabled_at: change.disabled ? '2026-02-01T00:00:00Z' : null,
                }),
              }
            : p,
        );
        return json(people.find((p) => p.id === Number(params.user_id)));
      },
    });
    const { user } = renderApp('/admin');
    const bob = await screen.findByRole('row', { name: 'Bob' });
    expect(bob).toHaveTextContent('Sales');
    expect(bob).toHaveTextContent('1,234 tokens · $0.50');
    expect(bob).toHaveTextContent('Never');

    await user.selectOptions(within(bob).getByRole('combobox', { name: 'Role of Bob' }), 'Member');
    await waitFor(() =>
      expect(api.sent('PATCH /api/v1/admin/people/:user_id')[0]?.body).toEqual({ role: 'member' }),
    );

    await user.click(within(bob).getByRole('button', { name: 'Disable Bob' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Disable account' });
    await user.click(within(dialog).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(screen.getByRole('row', { name: 'Bob' })).toHaveTextContent('Disabled'));
    expect(api.sent('PATCH /api/v1/admin/people/:user_id')[1]?.body).toEqual({ disabled: true });
    expect(screen.getByRole('button', { name: 'Enable Bob' })).toBeInTheDocument();
  });

  it('says when the list cannot load, with a retry', async () => {
    installFakeApi({
      'GET /api/v1/users/me': () => json(ADMIN),
      'GET /api/v1/admin/people': () => json({ detail: 'boom', code: 'internal_error' }, 500),
    });
    renderApp('/admin');
    expect(await screen.findByText('Error loading people.')).toBeInTheDocument();
  });

  it('deletes a person only once their email is typed, giving their agents to someone', async () => {
    const people = [person(1, 'Ada', { role: 'admin' }), person(2, 'Bob')];
    const api = installFakeApi({
      'GET /api/v1/users/me': () => json(ADMIN),
      'GET /api/v1/admin/people': pagedList(() => people),
      'DELETE /api/v1/admin/people/:user_id': () => json(null, 204),
    });
    const { user } = renderApp('/admin');
    await user.click(await screen.findByRole('button', { name: 'Delete Bob' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete account' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    expect(confirm).toBeDisabled();
    await user.selectOptions(
      await within(dialog).findByRole('combobox', { name: 'Their agents' }),
      'Give them to Ada',
    );
    await user.type(within(dialog).getByRole('textbox'), 'bob@example.com');
    await user.click(confirm);
    await waitFor(() =>
      expect(api.sent('DELETE /api/v1/admin/people/:user_id')[0]?.body).toEqual({
        confirmation: 'bob@example.com',
        agents_to: 1,
      }),
    );
  });

  it('shows Admin in the sidebar to admins only', async () => {
    installFakeApi({ 'GET /api/v1/users/me': () => json(ADMIN), 'GET /api/v1/admin/people': () => json([]) });
    const admin = renderApp('/admin');
    expect((await screen.findAllByRole('link', { name: 'Admin', hidden: true })).length).toBeGreaterThan(0);
    admin.unmount();
    installFakeApi({ 'GET /api/v1/agents/': () => json([]) });
    renderApp('/agents');
    expect(await screen.findByRole('heading', { name: 'Agents' })).toBeInTheDocument();
    // The sidebar is there (hidden at jsdom's width), without the Admin link.
    expect(screen.getAllByRole('link', { name: 'Agents', hidden: true }).length).toBeGreaterThan(0);
    expect(screen.queryByRole('link', { name: 'Admin', hidden: true })).not.toBeInTheDocument();
  });
});

describe('the Access codes section', () => {
  it('lists the server’s codes read only, makes a code shown once, and revokes one', async () => {
    let codes: AccessCode[] = [
      {
        id: null,
        source: 'environment',
        label: 'BETA_ACCESS_CODES',
        code: 'env-code',
        hint: 'code',
        expires_at: null,
        max_uses: null,
        uses: null,
        revoked_at: null,
        created_at: null,
      },
    ];
    const api = installFakeApi({
      'GET /api/v1/users/me': () => json(ADMIN),
      'GET /api/v1/admin/people': () => json([]),
      'GET /api/v1/admin/access-codes': () => json(codes),
      'POST /api/v1/admin/access-codes': () => {
        const made: AccessCode = {
          id: 4,
          source: 'admin',
          label: 'Sales',
          code: null,
          hint: 'WXYZ',
          expires_at: null,
          max_uses: 5,
          uses: 0,
          revoked_at: null,
          created_at: '2026-02-01T00:00:00Z',
        };
        codes = [...codes, made];
        return json({ ...made, code: 'ABCD-EFGH-JKMN-WXYZ' }, 201);
      },
      'DELETE /api/v1/admin/access-codes/:code_id': () => {
        codes = codes.map((c) => (c.id === 4 ? { ...c, revoked_at: '2026-02-02T00:00:00Z' } : c));
        return json(null, 204);
      },
    });
    const { user } = renderApp('/admin');
    await user.click(await screen.findByRole('button', { name: 'Access codes' }));
    const env = await screen.findByRole('row', { name: 'BETA_ACCESS_CODES' });
    expect(env).toHaveTextContent('env-code');
    expect(env).toHaveTextContent('Set by the server (read only)');

    await user.type(screen.getByRole('textbox', { name: 'Label' }), 'Sales');
    await user.type(screen.getByRole('spinbutton', { name: 'Maximum uses (empty: any)' }), '5');
    await user.click(screen.getByRole('button', { name: 'Create code' }));
    expect(await screen.findByRole('status')).toHaveTextContent('ABCD-EFGH-JKMN-WXYZ');
    expect(api.sent('POST /api/v1/admin/access-codes')[0]?.body).toEqual({ label: 'Sales', max_uses: 5 });
    const sales = await screen.findByRole('row', { name: 'Sales' });
    expect(sales).toHaveTextContent('0 of 5');

    await user.click(within(sales).getByRole('button', { name: 'Revoke Sales' }));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: 'Revoke access code' })).getByRole('button', {
        name: 'Revoke',
      }),
    );
    await waitFor(() => expect(screen.getByRole('row', { name: 'Sales' })).toHaveTextContent('Revoked'));
  });
});

describe('a member', () => {
  it('sees no way to build: no New agent, templates or import; no Create API key', async () => {
    installFakeApi({
      'GET /api/v1/users/me': () => json({ ...BUILDER_PROFILE, role: 'member' }),
      'GET /api/v1/agents/': () => json([]),
      'GET /api/v1/api-keys': () => json([]),
    });
    const { unmount } = renderApp('/agents');
    expect(
      await screen.findByText('No agents yet. Agents shared with you will be listed here.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Create New Agent|Create an agent/ })).not.toBeInTheDocument();
    unmount();
    renderApp('/api-keys');
    expect(await screen.findByText('You have no API keys.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create API key' })).not.toBeInTheDocument();
  });

  it('is told why at /agents/create typed by hand, instead of a form the server would refuse', async () => {
    installFakeApi({
      'GET /api/v1/users/me': () => json({ ...BUILDER_PROFILE, role: 'member' }),
    });
    renderApp('/agents/create');
    expect(
      await screen.findByText('Creating or changing agents needs the builder or admin role.'),
    ).toBeInTheDocument();
    expect(screen.getByText(/This account is a member/)).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /Name/ })).not.toBeInTheDocument();
  });

  it('is told when an admin disabled the account', async () => {
    const refused = {
      detail: 'This account has been disabled by an administrator',
      code: 'account_disabled',
    };
    installFakeApi({
      'GET /api/v1/users/me': () => json(refused, 403),
      'GET /api/v1/agents/': () => json(refused, 403),
    });
    renderApp('/agents');
    expect(await screen.findByText('This account is disabled')).toBeInTheDocument();
  });
});
