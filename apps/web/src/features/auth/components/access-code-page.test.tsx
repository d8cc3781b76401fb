import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '../../../api/api-client';
import { client } from '../../../client/client.gen';
import { toaster } from '../../../components/ui/toaster';
import { UiProvider } from '../../../components/ui/provider';
import { PASSWORD_SIGNED_IN_KEY } from '../access-code';
import { AccessCodePage, WRONG_CODE } from './access-code-page';

const requests: { url: string; body: unknown }[] = [];

function answer(status: number, body: unknown) {
  configureApiClient({ baseUrl: 'http://cadre.test/backend', getAccessToken: () => undefined });
  client.setConfig({
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      requests.push({ url: request.url, body: await request.json() });
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    },
  });
}

async function enterCode(code: string, onAccepted = vi.fn()) {
  render(
    <UiProvider>
      <AccessCodePage onAccepted={onAccepted} />
    </UiProvider>,
  );
  expect(screen.getByRole('heading', { name: 'Cadre' })).toBeInTheDocument();
  expect(screen.getByText('Please enter the code shared with you')).toBeInTheDocument();
  const field = screen.getByLabelText(/Access Code/);
  expect(field).toBeRequired();
  expect(field).toHaveAttribute('type', 'password');
  await userEvent.type(field, code);
  await userEvent.click(screen.getByRole('button', { name: 'Access' }));
  return onAccepted;
}

describe('AccessCodePage', () => {
  beforeEach(() => {
    window.localStorage.clear();
    requests.length = 0;
  });
  afterEach(() => {
    vi.restoreAllMocks();
    toaster.remove();
  });

  it('shows "Error" - "Incorrect password" for 5 s on a wrong code and stays', async () => {
    answer(401, { detail: 'Incorrect password', code: 'unauthorized' });
    const toast = vi.spyOn(toaster, 'create');
    const onAccepted = await enterCode('not-the-code');
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith({
        title: 'Error',
        description: 'Incorrect password',
        type: 'error',
        duration: 5000,
      }),
    );
    expect(await screen.findByText('Incorrect password')).toBeInTheDocument();
    expect(requests).toEqual([
      { url: 'http://cadre.test/backend/api/v1/public/beta-user-signin', body: { password: 'not-the-code' } },
    ]);
    expect(window.localStorage.getItem(PASSWORD_SIGNED_IN_KEY)).toBeNull();
    expect(onAccepted).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Access' })).toBeInTheDocument();
    // The field is marked, says why under it, and has the focus with the code selected to retype.
    const field = screen.getByLabelText(/Access Code/);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleErrorMessage(WRONG_CODE);
    expect(field).toHaveFocus();
    await userEvent.type(field, 'x');
    expect(field).not.toHaveAttribute('aria-invalid');
  });

  it('sets the flag and reloads on the right code', async () => {
    answer(200, { success: true });
    const onAccepted = await enterCode('e2e-code');
    await waitFor(() => expect(onAccepted).toHaveBeenCalledTimes(1));
    expect(window.localStorage.getItem(PASSWORD_SIGNED_IN_KEY)).toBe('true');
  });

  it('asks to wait when rate limited', async () => {
    answer(429, { detail: 'Too many attempts', code: 'rate_limited' });
    const toast = vi.spyOn(toaster, 'create');
    const onAccepted = await enterCode('guess');
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith(
        expect.objectContaining({ title: 'Too many attempts', type: 'error' }),
      ),
    );
    expect(onAccepted).not.toHaveBeenCalled();
    expect(window.localStorage.getItem(PASSWORD_SIGNED_IN_KEY)).toBeNull();
  });
});
