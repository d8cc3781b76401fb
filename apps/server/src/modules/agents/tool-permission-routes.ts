import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  agentParamsSchema,
  errorSchema,
  toolPermissionListSchema,
  toolPermissionParamsSchema,
  toolPermissionSchema,
  toolPermissionUpdateSchema,
  validationErrorSchema,
} from '@cadre/contract';
import { operations } from '../../http/openapi.ts';
import type { AgentsService } from './service.ts';

const op = operations('agents');
const errors = { 401: errorSchema, 404: errorSchema, 422: validationErrorSchema };

/** Per agent and write/send tool: "Ask every time" or "Allow without asking" (the agent editor). */
export const toolPermissionRoutes: FastifyPluginAsyncZod<{ agents: AgentsService }> = async (
  app,
  { agents },
) => {
  app.get(
    '/api/v1/agents/:agent_id/tool-permissions',
    op('listToolPermissions', 'Whether each write or send tool of the agent asks before it runs', {
      params: agentParamsSchema,
      response: { 200: toolPermissionListSchema, ...errors },
    }),
    async (request) => ({ data: await agents.toolPermissions(request.user.id, request.params.agent_id) }),
  );

  app.put(
    '/api/v1/agents/:agent_id/tool-permissions/:action_id',
    op(
      'setToolPermission',
      'Sets whether one write or send tool of the agent asks before it runs (audited)',
      {
        params: toolPermissionParamsSchema,
        body: toolPermissionUpdateSchema,
        response: { 200: toolPermissionSchema, ...errors },
      },
    ),
    async (request) =>
      agents.setToolPermission(
        request.user.id,
        request.params.agent_id,
        request.params.action_id,
        request.body.mode,
        'editor',
      ),
  );
};
