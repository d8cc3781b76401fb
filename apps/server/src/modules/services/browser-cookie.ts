import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { newBrowserSecret, type BrowserBinding, type CallbackBrowser } from './oauth-flow.ts';

/**
 * The cookie that binds an OAuth flow to the browser that started it (I1): `<user id>.<secret>`,
 * httpOnly, SameSite=Lax (it must ride along on the provider's top-level redirect back to us),
 * limited to the callback's path and to the state's 10 minutes. The web app starts the flow with
 * a same-origin `fetch` that includes credentials, so the cookie set on that answer is the one the
 * new tab presents at the callback. A newer flow on the same callback path replaces it.
 */
export const OAUTH_BROWSER_COOKIE = 'cadre_oauth';
const MAX_AGE_SECONDS = 10 * 60;

export function browserCookies(config: Config) {
  const options = { httpOnly: true, sameSite: 'lax' as const, secure: config.publicUrl.startsWith('https:') };
  // The path the browser sees, which includes PUBLIC_URL's own path when it has one.
  const basePath = new URL(config.publicUrl).pathname.replace(/\/+$/, '');
  return {
    /** A fresh binding for a flow `userId` starts; the cookie is set once the state is stored. */
    bind(reply: FastifyReply, userId: number): BrowserBinding {
      const secret = newBrowserSecret();
      return {
        secret,
        onBound: (path) =>
          void reply.setCookie(OAUTH_BROWSER_COOKIE, `${userId}.${secret}`, {
            ...options,
            path,
            maxAge: MAX_AGE_SECONDS,
          }),
      };
    },

    /** What the browser at a callback presents; the cookie is single use, so it is cleared. */
    take(request: FastifyRequest, reply: FastifyReply): CallbackBrowser | undefined {
      const value = request.cookies[OAUTH_BROWSER_COOKIE];
      if (value === undefined) return undefined;
      reply.clearCookie(OAUTH_BROWSER_COOKIE, {
        ...options,
        path: `${basePath}${request.url.split('?')[0]}`,
      });
      const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value);
      return match ? { userId: Number(match[1]), secret: match[2]! } : undefined;
    },
  };
}
