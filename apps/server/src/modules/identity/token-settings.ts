/** Scopes the web app asks for; the API's access tokens carry them in `scope`, as Auth0's do. */
export const WEB_SCOPES = 'openid profile email';
export const ACCESS_TOKEN_TTL_SECONDS = 10 * 60;
