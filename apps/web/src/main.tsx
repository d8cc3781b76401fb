import { loadRuntimeConfig } from './config/runtime-config';
import { mayGoToSignInFirst, showsAccessCodeFirst } from './features/auth/first-visit';

// Each first visit loads only what it paints (docs/benchmarks.md, "First visit JS"): a signed-out
// visit to a guarded page goes to the identity provider before the app is loaded (only the document
// the provider sends back paints); a visit before the access code shows that page alone; otherwise
// the app's code is requested alongside the runtime configuration.
const signIn = mayGoToSignInFirst() ? import('./features/auth/sign-in-first') : undefined;
const gate = showsAccessCodeFirst() ? import('./gate') : undefined;
const app = signIn || gate ? undefined : import('./start');

// Not a top-level await: a module with one turns off the bundler's chunk optimizations for the
// whole build (rolldown's `chunkOptimization`), which left the first visit with about 40 more,
// smaller files and 12 KB more gzip (docs/benchmarks.md, "First visit JS").
void (async () => {
  const result = await loadRuntimeConfig();
  if (gate && result.ok) {
    (await gate).showGate(result.config);
  } else if (!(signIn && result.ok && (await (await signIn).sendToSignInFirst(result.config)))) {
    const { start } = await (app ?? import('./start'));
    start(result);
  }
})();
