import { OidcClient } from 'oidc-client-ts';
import type { RuntimeConfig } from '@cadre/contract';
import { signInUrl, userManagerSettings } from './sign-in-request';

// Loaded by main.tsx only for a visit that goes to sign-in first (first-visit.ts decides).

/**
 * Sends the browser to the provider as the shell's guard would, but before the app (router,
 * Chakra, query cache) is loaded: a cold visit is then two documents of which only the second,
 * the one that paints, loads the app (docs/benchmarks.md, "First visit JS"). False when sign-in
 * is off, and the app takes over.
 */
export async function sendToSignInFirst(
  config: RuntimeConfig,
  location: Location = window.location,
): Promise<boolean> {
  if (config.disableAuth0) return false;
  const returnTo = `${location.pathname}${location.search}${location.hash}`;
  location.assign(await signInUrl(new OidcClient(userManagerSettings(config)), returnTo));
  return true;
}
