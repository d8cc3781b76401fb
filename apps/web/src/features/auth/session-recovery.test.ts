import { describe, expect, it, vi } from 'vitest';
import type { AuthClient } from './auth-client';
import { createSessionRecovery } from './session-recovery';

function setup(refreshes: boolean[], disabled = false) {
  let clock = 1_000_000;
  const auth: AuthClient = {
    disabled,
    isSignedIn: async () => true,
    signInUrl: async () => '/idp',
    refresh: vi.fn(async () => refreshes.shift() ?? false),
    forget: vi.fn(async () => {}),
  };
  const retryRefused = vi.fn(async () => {});
  const toSignIn = vi.fn(async () => {});
  const onUnauthorized = createSessionRecovery({ auth, retryRefused, toSignIn, now: () => clock });
  return { auth, retryRefused, toSignIn, onUnauthorized, advance: (ms: number) => (clock += ms) };
}

describe('session recovery after a 401', () => {
  it('refreshes silently and retries the refused queries', async () => {
    const { auth, retryRefused, toSignIn, onUnauthorized } = setup([true]);
    await onUnauthorized();
    expect(auth.refresh).toHaveBeenCalledTimes(1);
    expect(retryRefused).toHaveBeenCalledTimes(1);
    expect(auth.forget).not.toHaveBeenCalled();
    expect(toSignIn).not.toHaveBeenCalled();
  });

  it('forgets the session and goes to sign-in when the provider gives no token', async () => {
    const { auth, retryRefused, toSignIn, onUnauthorized } = setup([false]);
    await onUnauthorized();
    expect(auth.forget).toHaveBeenCalledTimes(1);
    expect(toSignIn).toHaveBeenCalledTimes(1);
    expect(retryRefused).not.toHaveBeenCalled();
  });

  it('answers 401s that arrive together with one refresh', async () => {
    const { auth, retryRefused, onUnauthorized } = setup([true, true]);
    await Promise.all([onUnauthorized(), onUnauthorized(), onUnauthorized()]);
    expect(auth.refresh).toHaveBeenCalledTimes(1);
    expect(retryRefused).toHaveBeenCalledTimes(1);
  });

  it('goes to sign-in when the refreshed token is refused too, instead of refreshing in a loop', async () => {
    const { auth, toSignIn, onUnauthorized, advance } = setup([true, true, true]);
    await onUnauthorized();
    advance(5_000);
    await onUnauthorized();
    expect(auth.refresh).toHaveBeenCalledTimes(1);
    expect(toSignIn).toHaveBeenCalledTimes(1);
    // Much later, an expired token is refreshed again.
    advance(60_000);
    await onUnauthorized();
    expect(auth.refresh).toHaveBeenCalledTimes(2);
  });

  it('does nothing when sign-in is switched off', async () => {
    const { auth, toSignIn, onUnauthorized } = setup([], true);
    await onUnauthorized();
    expect(auth.refresh).not.toHaveBeenCalled();
    expect(toSignIn).not.toHaveBeenCalled();
  });
});
