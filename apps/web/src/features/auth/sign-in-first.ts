import { OidcClient } from 'oidc-client-ts';
import type { RuntimeConfig } from '@cadre/contract';
import { hasPassedAccessCode } from './access-code';
import { signedInThisTab, signInUrl, userManagerSettings } from './sign-in-request';

/**
 * The paths the shell's guard (routes/_layout.tsx) covers; sign-in-first.test.ts checks this
 * against the router's own matching.
 */
const GUARDED_PATH =
  /^\/(info|agents(\/create|\/[^/]+\/edit|\/[^/]+\/chat(\/[^/]+)?)?|services(\/[^/]+\/actions)?|usage|api-keys|debug_info)\/?$/;

/**
 * Whether this visit will probably go straight to the identity provider: a guarded page, the
 * access code passed, and no session this tab could renew silently (tokens live in memory, so a
 * new document has none). Decided before the runtime configuration arrives, so that main.tsx can
 * request the app's code at once whenever the app will render.
 */
export function mayGoToSignInFirst(location: Location = window.location): boolean {
  return GUARDED_PATH.test(location.pathname) && hasPassedAccessCode() && !signedInThisTab.get();
}

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
