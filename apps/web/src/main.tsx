import { loadRuntimeConfig } from './config/runtime-config';
import { mayGoToSignInFirst, sendToSignInFirst } from './features/auth/sign-in-first';

// A signed-out visit to a guarded page goes to the identity provider before the app is loaded:
// only the document the provider sends back paints, so only it needs the app (docs/benchmarks.md,
// "First visit JS"). Otherwise the app's code is requested alongside the runtime configuration.
const goingToSignIn = mayGoToSignInFirst();
const app = goingToSignIn ? undefined : import('./start');

const result = await loadRuntimeConfig();
if (!(goingToSignIn && result.ok && (await sendToSignInFirst(result.config)))) {
  const { start } = await (app ?? import('./start'));
  start(result);
}
