import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorSchema,
  TRIGGER_BODY_LIMIT_BYTES,
  triggerAcceptedSchema,
  triggerBodySchema,
  triggerParamsSchema,
  validationErrorSchema,
} from '@cadre/contract';
import type { TriggersService } from './service.ts';

const errors = { 401: errorSchema, 404: errorSchema, 422: validationErrorSchema };

/** Queues an unattended run of one of the caller's agents (an agent call of spec section 7). */
export const triggerRoutes: FastifyPluginAsyncZod<{ triggers: TriggersService }> = async (
  app,
  { triggers },
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
        body: triggerBodySchema,
        response: { 202: triggerAcceptedSchema, 413: errorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const id = await triggers.queue(
        request.user.id,
        request.params.agent_id,
        request.params.trigger_id,
        request.body,
      );
      return reply.code(202).send({ id });
    },
  );
};
