/**
 * The web app's runtime configuration (spec section 3). The server builds it from its settings;
 * the web app fetches it before rendering and refuses to start on anything that does not match
 * (`apps/web/src/config/runtime-config.ts`). Every field is required and the object is strict: an
 * unknown field is an error, so a typo in a deployment is caught on the first page load instead of
 * silently falling back to a default. The web app's check is written by hand rather than as a Zod
 * schema: it runs before the first paint, where Zod Mini cost 15 KB gzip (docs/benchmarks.md,
 * "First visit JS").
 */
export interface RuntimeConfig {
  /** Page-analytics tag id; empty means analytics is off. */
  analyticsTagId: string;
  /** Session-recording (heatmap) tracking; siteId 0 means it is off. */
  heatmapTracking: { siteId: number; version: number };
  isProduction: boolean;
  isDevelopment: boolean;
  disableAuth0: boolean;
  /** URL. */
  chainlitUrl: string;
  /** URL. */
  chainlitDemosUrl: string;
  /** URL. */
  apiUrl: string;
  /** The OpenID Connect issuer (Auth0 calls it the domain); URL. */
  auth0Domain: string;
  /** Not empty. */
  auth0ClientId: string;
  /** URL. */
  auth0RedirectUri: string;
  /** Not empty. */
  auth0Audience: string;
  /** URL. */
  auth0LogoutRedirect: string;
  /** Where the sidebar's Feedback link goes (a URL); empty hides the link. */
  feedbackUrl: string;
}

/** The path the server serves the runtime configuration at, relative to the app origin. */
export const RUNTIME_CONFIG_PATH = '/runtime-config.json';

/**
 * The page the identity provider sends a silent sign-in back to (a hidden frame of the web app,
 * after a reload): it only hands its address to the app. Relative to the sign-in redirect's origin;
 * the provider must list it as a redirect URI of the web app's client.
 */
export const SILENT_SIGN_IN_PATH = '/silent-sign-in.html';
export const silentSignInUri = (redirectUri: string) => new URL(SILENT_SIGN_IN_PATH, redirectUri).href;
