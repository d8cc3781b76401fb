import type { AuthClient } from './auth-client';

/**
 * A refreshed token that is refused again within this time means the API does not accept the
 * session at all (the account was removed, the keys changed): refreshing again would only loop.
 */
const REFUSED_AGAIN_MS = 30_000;

/**
 * What a 401 from the API means, decided in one place (the query and mutation caches call this; no
 * screen does): the access token expired or was revoked. A silent refresh gets a new one, then the
 * queries that were refused are fetched again. When the provider gives none, or the new token is
 * refused too, the session is forgotten and `toSignIn` runs the shell's guard again, which sends
 * the browser to sign-in. Concurrent 401s share one recovery.
 */
export function createSessionRecovery(options: {
  auth: AuthClient;
  retryRefused: () => Promise<unknown>;
  toSignIn: () => Promise<unknown>;
  now?: () => number;
}) {
  const now = options.now ?? Date.now;
  let running: Promise<boolean> | undefined;
  let refreshedAt = -Infinity;

  /** True when a new token came; otherwise the session is gone and sign-in has begun. */
  async function refreshOrSignIn(): Promise<boolean> {
    if (now() - refreshedAt > REFUSED_AGAIN_MS && (await options.auth.refresh())) {
      refreshedAt = now();
      return true;
    }
    await options.auth.forget();
    await options.toSignIn();
    return false;
  }

  return async function onUnauthorized(): Promise<void> {
    if (options.auth.disabled) return;
    if (running) {
      await running;
      return;
    }
    running = refreshOrSignIn();
    let refreshed: boolean;
    try {
      refreshed = await running;
    } finally {
      running = undefined;
    }
    // After the shared recovery: a query refused again starts a new one (and goes to sign-in).
    if (refreshed) await options.retryRefused();
  };
}
