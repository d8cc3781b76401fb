import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COLOR_MODE_KEY } from '@cadre/ui';
import { toaster } from '../../../components/ui/toaster';
import { installFakeApi, json } from '../../../test/fake-api';
import { pickMenuItem } from '../../../test/menus';
import { findToast, renderApp, renderWithProviders } from '../../../test/render';
import { UserMenu } from './user-menu';

type User = ReturnType<typeof renderApp>['user'];

/** The shell renders the menu in the wide sidebar and in the phone's top bar; jsdom shows both. */
const menuButton = () => screen.getAllByRole('button', { name: 'Account menu of Mock User' })[0]!;

const pick = (user: User, item: string, role?: 'menuitem' | 'menuitemradio') =>
  pickMenuItem(user, menuButton(), item, role);

afterEach(() => {
  toaster.remove();
  window.localStorage.removeItem(COLOR_MODE_KEY);
  vi.restoreAllMocks();
});

describe('the user menu in the header', () => {
  it('shows who is signed in: initials on the button, name and email in the menu', async () => {
    installFakeApi();
    const { user } = renderApp('/info');
    await screen.findByRole('heading', { name: 'Welcome to Cadre' });
    expect(within(menuButton()).getByText('MU')).toBeInTheDocument();
    // The mock user has no picture: nothing to load.
    expect(menuButton().querySelector('img')).toBeNull();
    await user.click(menuButton());
    const identity = await screen.findByTestId('user-menu-identity');
    expect(identity).toHaveTextContent('Mock User');
    expect(identity).toHaveTextContent('mock.user@example.com');
  });

  it("shows the identity provider's picture when the profile has one, and the initials until it loads or if it fails", async () => {
    const signOut = vi.fn(async () => {});
    const { unmount } = renderWithProviders(
      <UserMenu user={{ name: 'Ada Lovelace', picture: '/idp/avatars/ada.svg' }} onSignOut={signOut} />,
    );
    const button = screen.getByRole('button', { name: 'Account menu of Ada Lovelace' });
    const picture = button.querySelector('img')!;
    expect(picture).toHaveAttribute('src', '/idp/avatars/ada.svg');
    // Decorative: the button is named by the person's name.
    expect(picture).toHaveAttribute('alt', '');
    expect(within(button).getByText('AL')).toBeVisible();
    fireEvent.load(picture);
    await waitFor(() => expect(within(button).getByText('AL')).not.toBeVisible());
    expect(picture).toBeVisible();
    unmount();

    renderWithProviders(
      <UserMenu user={{ name: 'Ada Lovelace', picture: '/idp/avatars/gone.svg' }} onSignOut={signOut} />,
    );
    const failed = screen.getByRole('button', { name: 'Account menu of Ada Lovelace' });
    fireEvent.error(failed.querySelector('img')!);
    expect(within(failed).getByText('AL')).toBeVisible();
  });

  it('switches the theme to dark, remembers it, and goes back to the system setting', async () => {
    installFakeApi();
    const { user } = renderApp('/agents');
    await screen.findByRole('heading', { name: 'Agents' });
    await pick(user, 'Dark', 'menuitemradio');
    await waitFor(() => expect(document.documentElement).toHaveClass('dark'));
    expect(window.localStorage.getItem(COLOR_MODE_KEY)).toBe('dark');
    await pick(user, 'Light', 'menuitemradio');
    await waitFor(() => expect(document.documentElement).toHaveClass('light'));
    expect(window.localStorage.getItem(COLOR_MODE_KEY)).toBe('light');
    await pick(user, 'System', 'menuitemradio');
    await waitFor(() => expect(window.localStorage.getItem(COLOR_MODE_KEY)).toBeNull());
  });

  it('"Your data" downloads the export as a JSON file', async () => {
    const api = installFakeApi({
      'GET /api/v1/users/me/export': () => json({ user: { id: 1 }, agents: [] }),
    });
    const saved: string[] = [];
    URL.createObjectURL = vi.fn(() => 'blob:export');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { user } = renderApp('/services');
    await screen.findByRole('heading', { name: 'Services' });
    await pick(user, 'Your data');
    const dialog = await screen.findByRole('dialog', { name: 'Your data' });
    await user.click(within(dialog).getByRole('button', { name: 'Download my data' }));
    expect(await findToast('Export ready')).toMatchObject({ type: 'success', duration: 5000 });
    expect(api.sent('GET /api/v1/users/me/export')).toHaveLength(1);
    expect(saved).toEqual(['cadre-my-data.json']);
  });

  it('deletes the account only once DELETE is typed, then says so and signs out', async () => {
    const api = installFakeApi({ 'DELETE /api/v1/users/me': () => new Response(null, { status: 204 }) });
    const { user } = renderApp('/info');
    await screen.findByRole('heading', { name: 'Welcome to Cadre' });
    await pick(user, 'Your data');
    const dialog = await screen.findByRole('dialog', { name: 'Your data' });
    const remove = within(dialog).getByRole('button', { name: 'Delete my account' });
    expect(remove).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Type DELETE to confirm'), 'delete');
    expect(remove).toBeDisabled();
    await user.clear(within(dialog).getByLabelText('Type DELETE to confirm'));
    await user.type(within(dialog).getByLabelText('Type DELETE to confirm'), 'DELETE');
    expect(remove).toBeEnabled();
    await user.click(remove);
    expect(await findToast('Data deleted')).toMatchObject({
      description: 'Your data has been deleted. You are being signed out.',
      type: 'success',
    });
    expect(api.sent('DELETE /api/v1/users/me')).toHaveLength(1);
  });

  it('asks the logout confirmation before signing out; Cancel stays signed in', async () => {
    installFakeApi();
    const { user } = renderApp('/info');
    await screen.findByRole('heading', { name: 'Welcome to Cadre' });
    await pick(user, 'Log Out');
    const dialog = await screen.findByRole('alertdialog', { name: 'Logout Confirmation' });
    expect(within(dialog).getByText('Are you sure you want to log out?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });
});
