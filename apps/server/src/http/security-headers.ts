import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config.ts';

// What every policy shares: only our own scripts, inline styles (the UI library injects them at run
// time), images and fonts from us or data: URLs, and no plugins or <base> rewriting.
const OWN_CONTENT = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
};
const NO_PLUGINS_OR_BASE = { 'object-src': ["'none'"], 'base-uri': ["'none'"] };

/**
 * Security headers on every response. The CSP allows only our own scripts; styles may be inline
 * because the UI library injects them at run time. `frame-ancestors 'none'` is the default; the
 * chat frame (served under /chainlit) relaxes it to 'self' on its own responses so that the web app,
 * and nothing else, can embed it.
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Config) {
  const issuerOrigin = new URL(config.auth.issuer).origin;
  // A sign-in or sign-out form posted to the provider ends in a redirect back to the app; Chromium
  // checks `form-action` against every hop of that redirect chain, so the app's origins are listed.
  const formTargets = [
    ...new Set([
      issuerOrigin,
      new URL(config.auth.redirectUri).origin,
      new URL(config.auth.logoutRedirectUri).origin,
    ]),
  ];
  // helmet's middleware is built once here; the Fastify plugin rebuilt it from these options on every
  // request, which cost the busiest API call several percent of its time.
  const setHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        ...OWN_CONTENT,
        'connect-src': ["'self'", issuerOrigin],
        'frame-src': ["'self'"],
        'frame-ancestors': ["'none'"],
        'form-action': ["'self'", ...formTargets],
        ...NO_PLUGINS_OR_BASE,
      },
    },
    // The identity provider's pages post forms to the issuer and redirect back to the app.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
    strictTransportSecurity: config.publicUrl.startsWith('https:'),
  });
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
}

/**
 * The CSP of the chat frame's responses (under /chainlit and /demos): the same strict policy as the
 * rest of the app, except that our own origin may embed it (`frame-ancestors 'self'`).
 */
export const CHAT_FRAME_CSP = Object.entries({
  ...OWN_CONTENT,
  'connect-src': ["'self'"],
  ...NO_PLUGINS_OR_BASE,
  'form-action': ["'self'"],
  'frame-ancestors': ["'self'"],
})
  .map(([directive, sources]) => `${directive} ${sources.join(' ')}`)
  .join('; ');
