import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { InteractionResults } from 'oidc-provider';
import { isDatabaseUnavailable } from '../../db/unavailable.ts';
import type { Identity } from './provider.ts';
import { messagePage, sendPage } from './views.ts';

/** A form field's text, or '' when it is absent or not text. */
export const field = (body: unknown, name: string): string => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};

type InteractionRequest = FastifyRequest<{ Params: { uid: string } }>;
type InteractionDetails = Awaited<ReturnType<Provider['interactionDetails']>>;
type InteractionHandler = (
  request: InteractionRequest,
  reply: FastifyReply,
  details: InteractionDetails,
) => Promise<unknown>;

/** What every interaction page does: find the browser's interaction, finish it, say "too many". */
export function interactionPages(provider: Identity['provider']) {
  /** The interaction bound to this browser (its signed cookie), or a page explaining it expired. */
  async function load(request: InteractionRequest, reply: FastifyReply) {
    try {
      const details = await (await provider()).interactionDetails(request.raw, reply.raw);
      if (details.uid === request.params.uid) return details;
    } catch (err) {
      // An outage is not an expired sign-in: the page says so (outage.ts), and a retry works.
      if (isDatabaseUnavailable(err)) throw err;
      request.log.info({ err }, 'sign-in interaction not found');
    }
    await sendPage(
      reply,
      400,
      messagePage(
        'Sign-in expired',
        'This sign-in page has expired or was opened in another browser. Go back to Cadre and sign in again.',
        { alert: true },
      ),
    );
    return undefined;
  }

  return {
    /**
     * A page of the interaction `/idp/interaction/:uid{path}`: the handler runs only for the
     * interaction this browser holds; any other uid gets the "Sign-in expired" page.
     */
    route(app: FastifyInstance, method: 'get' | 'post', path: string, handler: InteractionHandler) {
      app[method]<{ Params: { uid: string } }>(
        `/idp/interaction/:uid${path}`,
        { config: { public: true }, schema: { hide: true } },
        async (request, reply) => {
          const details = await load(request, reply);
          return details ? handler(request, reply, details) : reply;
        },
      );
    },

    async finish(request: FastifyRequest, reply: FastifyReply, result: InteractionResults, merge = false) {
      const url = await (
        await provider()
      ).interactionResult(request.raw, reply.raw, result, {
        mergeWithLastSubmission: merge,
      });
      return reply.header('cache-control', 'no-store').redirect(url, 303);
    },

    locked(reply: FastifyReply, retryAfterSeconds: number) {
      const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
      reply.header('retry-after', String(retryAfterSeconds));
      return sendPage(
        reply,
        429,
        messagePage(
          'Too many attempts',
          `Too many sign-in attempts. Wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
          { alert: true },
        ),
      );
    },
  };
}
