import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  agentParamsSchema,
  triggerEventListSchema,
  triggerSecretCreatedSchema,
  triggerSecretStatusSchema,
} from '@cadre/contract';
import { z } from 'zod';
import { objectErrors, operations } from '../../http/openapi.ts';
import type { TriggerSecrets } from './secrets.ts';
import type { TriggersService } from './service.ts';

const op = operations('agents');

/** What the agent editor's Triggers section shows and sets: the last runs and the signing secret. */
export const triggerManagementRoutes: FastifyPluginAsyncZod<{
  triggers: TriggersService;
  secrets: TriggerSecrets;
}> = async (app, { triggers, secrets }) => {
  app.get(
    '/api/v1/agents/:agent_id/triggers/events',
    op('listTriggerEvents', 'The agent’s latest trigger events with their state and thread, newest first', {
      params: agentParamsSchema,
      response: { 200: triggerEventListSchema, ...objectErrors },
    }),
    async (request) => triggers.events(request.user.id, request.params.agent_id),
  );

  app.get(
    '/api/v1/agents/:agent_id/trigger-secret',
    op('getTriggerSecret', 'Whether signed trigger calls are on for the agent (never the secret)', {
      params: agentParamsSchema,
      response: { 200: triggerSecretStatusSchema, ...objectErrors },
    }),
    async (request) => secrets.status(request.user.id, request.params.agent_id),
  );

  app.post(
    '/api/v1/agents/:agent_id/trigger-secret',
    {
      config: { permission: 'manage_triggers' },
      ...op(
        'rotateTriggerSecret',
        'Makes a new trigger secret (the old one stops at once); shown this once',
        {
          params: agentParamsSchema,
          response: { 201: triggerSecretCreatedSchema, ...objectErrors },
        },
      ),
    },
    async (request, reply) =>
      reply.code(201).send(await secrets.rotate(request.user.id, request.params.agent_id)),
  );

  app.delete(
    '/api/v1/agents/:agent_id/trigger-secret',
    {
      config: { permission: 'manage_triggers' },
      ...op('deleteTriggerSecret', 'Turns signed trigger calls off for the agent', {
        params: agentParamsSchema,
        response: { 204: z.null().describe('Deleted'), ...objectErrors },
      }),
    },
    async (request, reply) => {
      await secrets.remove(request.user.id, request.params.agent_id);
      return reply.code(204).send(null);
    },
  );
};
