import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorSchema,
  idempotentCreateHeadersSchema,
  TRIGGER_BODY_LIMIT_BYTES,
  triggerAcceptedSchema,
  triggerBodySchema,
  triggerParamsSchema,
  validationErrorSchema,
} from '@cadre/contract';
import type { Db } from '../../db/database.ts';
import { idempotencyFor } from '../../http/idempotency.ts';
import type { TriggersService } from './service.ts';

const errors = { 401: errorSchema, 404: errorSchema, 422: validationErrorSchema };

/** Queues an unattended run of one of the caller's agents (an agent call of spec section 7). */
export const triggerRoutes: FastifyPluginAsyncZod<{ triggers: TriggersService; db: Db }> = async (
  app,
  { triggers, db },
) => {
  app.post(
    '/api/v1/agents/:agent_id/triggers/:trigger_id',
    {
      bodyLimit: TRIGGER_BODY_LIMIT_BYTES,
      schema: {
        operationId: 'triggerAgent',
        tags: ['agents'],
        summary: 'Queues an unattended run of the agent with a JSON payload',
        params: triggerParamsSchema,
        headers: idempotentCreateHeadersSchema,
        body: triggerBodySchema,
        response: { 202: triggerAcceptedSchema, 413: errorSchema, ...errors },
      },
    },
    async (request, reply) => {
      // A sender retrying after a lost answer must not run the agent twice for one event.
      const idempotency = await idempotencyFor<{ id: number }>(db, request, request.user.id, 202);
      if (idempotency.replay) return reply.code(202).send(idempotency.replay.body as { id: number });
      try {
        const id = await triggers.queue(
          request.user.id,
          request.params.agent_id,
          request.params.trigger_id,
          request.body,
          idempotency.record,
        );
        return reply.code(202).send({ id });
      } catch (err) {
        const winner = await idempotency.winner();
        if (winner) return reply.code(202).send(winner.body as { id: number });
        throw err;
      }
    },
  );
};
