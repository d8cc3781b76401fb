import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorSchema,
  idempotentCreateHeadersSchema,
  pathIdSchema,
  TRIGGER_BODY_LIMIT_BYTES,
  triggerAcceptedSchema,
  triggerBodySchema,
  triggerParamsSchema,
} from '@cadre/contract';
import { objectErrors } from '../../http/openapi.ts';
import { DISABLED_DETAIL, isSignedCall } from '../../http/auth.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { createOnce } from '../../http/idempotency.ts';
import { triggerSecrets } from './secrets.ts';
import { createTriggersService } from './service.ts';
import { triggerManagementRoutes } from './management-routes.ts';
import type { TriggerRouteDeps } from './ports.ts';

/** The trigger calls' rate-limit clock (milliseconds since the epoch); tests fix it. */
export interface TriggerOptions {
  now?: () => number;
}

/**
 * Queues an unattended run of one of the caller's agents (an agent call of spec section 7). The
 * caller is the owner (a sign-in token or an API key with the `chat` scope), or a host that signs
 * the call with the agent's trigger secret (Standard Webhooks), whose `webhook-id` makes a resend
 * answer the first call's 202 instead of running the agent again.
 */
export const triggerRoutes: FastifyPluginAsyncZod<TriggerRouteDeps & TriggerOptions> = async (app, deps) => {
  const triggers = createTriggersService({ ...deps, perMinute: deps.config.triggers.perMinute });
  const secrets = triggerSecrets(deps);
  // A signature covers the body as sent, so this plugin's JSON parser keeps the bytes it parsed.
  const rawBodies = new WeakMap<FastifyRequest, Buffer>();
  const signedBy = new WeakMap<FastifyRequest, { userId: number; webhookId: string }>();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const raw = body as Buffer;
    rawBodies.set(request, raw);
    parseJson(request, raw.toString('utf8'), done);
  });

  app.post(
    '/api/v1/agents/:agent_id/triggers/:trigger_id',
    {
      bodyLimit: TRIGGER_BODY_LIMIT_BYTES,
      config: { apiKeyScope: 'chat', signedCalls: true },
      schema: {
        operationId: 'triggerAgent',
        tags: ['agents'],
        summary:
          'Queues an unattended run of the agent with a JSON payload (a bearer token, or a Standard Webhooks signature with the agent’s trigger secret)',
        params: triggerParamsSchema,
        headers: idempotentCreateHeadersSchema,
        body: triggerBodySchema,
        response: { 202: triggerAcceptedSchema, 413: errorSchema, 429: errorSchema, ...objectErrors },
      },
      // A signed call is verified before its body is validated or anything is read for it.
      preValidation: async (request) => {
        if (!isSignedCall(request)) return;
        const agentId = pathIdSchema.safeParse((request.params as { agent_id?: unknown }).agent_id);
        const verdict = agentId.success
          ? await secrets.verify(agentId.data, request.headers, rawBodies.get(request) ?? Buffer.alloc(0))
          : { ok: false as const, reason: 'Invalid webhook signature' };
        if (!verdict.ok) {
          request.log.info({ reason: verdict.reason }, 'signed trigger call refused');
          throw new HttpError('unauthorized', verdict.reason);
        }
        // A signed call acts as the agent's owner, so it stops with the owner's account.
        if (!(await deps.owners.isActive(verdict.userId))) {
          throw new HttpError('account_disabled', DISABLED_DETAIL);
        }
        signedBy.set(request, verdict);
      },
    },
    async (request, reply) => {
      const agentId = request.params.agent_id;
      const limit = request.apiKey?.agentIds;
      if (limit && !limit.includes(agentId)) throw notFound('Agent not found');
      const signed = signedBy.get(request);
      const userId = signed?.userId ?? request.user.id;
      // Past the month's token budget the call is refused (429 with Retry-After), nothing queued.
      await deps.usage.checkBudget(userId);
      // A sender retrying after a lost answer must not run the agent twice for one event; a signed
      // call's webhook-id is its idempotency key (hashed: the header's length is the sender's).
      const derived = signed && {
        key: `webhook:${agentId}:${crypto.createHash('sha256').update(signed.webhookId).digest('base64url')}`,
        header: 'webhook-id',
      };
      return createOnce<{ id: number }>(
        deps.db,
        request,
        reply,
        { userId, status: 202, derived },
        async (record) => ({
          id: await triggers.queue(
            userId,
            agentId,
            request.params.trigger_id,
            request.body,
            record,
            signed ? 'signature' : 'token',
          ),
        }),
      );
    },
  );

  await app.register(triggerManagementRoutes, { triggers, secrets });
};
