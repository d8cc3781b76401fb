import { hasPassedAccessCode } from './access-code';
import { signedInThisTab } from './signed-in-this-tab';

// What a first visit needs before its first paint, decided by main.tsx before anything else loads
// (docs/benchmarks.md, "First visit JS"): the sign-in redirect, the access-code page, or the app.

/**
 * The paths the shell's guard (routes/_layout.tsx) covers; sign-in-first.test.ts checks this
 * against the router's own matching.
 */
const GUARDED_PATH =
  /^\/(info|agents(\/create|\/[^/]+\/edit|\/[^/]+\/chat(\/[^/]+)?)?|services(\/[^/]+\/actions)?|usage|api-keys|admin|debug_info)\/?$/;

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
 * Whether this visit shows the access-code page (a guarded page, the code not passed yet): main.tsx
 * then renders the page alone (gate.tsx), without the router, the shell or the page asked for. A
 * correct code reloads at `/`, so the app never renders behind the page.
 */
export function showsAccessCodeFirst(location: Location = window.location): boolean {
  return GUARDED_PATH.test(location.pathname) && !hasPassedAccessCode();
}
