import * as z from 'zod/mini';

/**
 * The web app's runtime configuration (spec section 3). The server builds it from its settings;
 * the web app fetches it before rendering and refuses to start on anything that does not match.
 * Every field is required and the object is strict: an unknown field is an error, so a typo in a
 * deployment is caught on the first page load instead of silently falling back to a default.
 * Written with Zod Mini: the web app checks it before its first paint, and classic Zod would put
 * about 25 KB (gzip) more into the app shell (docs/benchmarks.md, "Web").
 */
export const runtimeConfigSchema = z.strictObject({
  /** Page-analytics tag id; empty means analytics is off. */
  analyticsTagId: z.string(),
  /** Session-recording (heatmap) tracking; siteId 0 means it is off. */
  heatmapTracking: z.strictObject({
    siteId: z.number(),
    version: z.number(),
  }),
  isProduction: z.boolean(),
  isDevelopment: z.boolean(),
  disableAuth0: z.boolean(),
  chainlitUrl: z.url(),
  chainlitDemosUrl: z.url(),
  apiUrl: z.url(),
  /** The OpenID Connect issuer (Auth0 calls it the domain). */
  auth0Domain: z.url(),
  auth0ClientId: z.string().check(z.minLength(1)),
  auth0RedirectUri: z.url(),
  auth0Audience: z.string().check(z.minLength(1)),
  auth0LogoutRedirect: z.url(),
  /** Where the sidebar's Feedback link goes; empty hides the link. */
  feedbackUrl: z.union([z.url(), z.literal('')]),
});

export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

/** The path the server serves the runtime configuration at, relative to the app origin. */
export const RUNTIME_CONFIG_PATH = '/runtime-config.json';

/**
 * The page the identity provider sends a silent sign-in back to (a hidden frame of the web app,
 * after a reload): it only hands its address to the app. Relative to the sign-in redirect's origin;
 * the provider must list it as a redirect URI of the web app's client.
 */
export const SILENT_SIGN_IN_PATH = '/silent-sign-in.html';
export const silentSignInUri = (redirectUri: string) => new URL(SILENT_SIGN_IN_PATH, redirectUri).href;
