import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  agentParamsSchema,
  toolPermissionListSchema,
  toolPermissionParamsSchema,
  toolPermissionSchema,
  toolPermissionUpdateSchema,
} from '@cadre/contract';
import { objectErrors, operations } from '../../http/openapi.ts';
import type { AgentsService } from './service.ts';

const op = operations('agents');

/** Per agent and write/send tool: "Ask every time" or "Allow without asking" (the agent editor). */
export const toolPermissionRoutes: FastifyPluginAsyncZod<{ agents: AgentsService }> = async (
  app,
  { agents },
) => {
  app.get(
    '/api/v1/agents/:agent_id/tool-permissions',
    op('listToolPermissions', 'Whether each write or send tool of the agent asks before it runs', {
      params: agentParamsSchema,
      response: { 200: toolPermissionListSchema, ...objectErrors },
    }),
    async (request) => ({ data: await agents.toolPermissions(request.user.id, request.params.agent_id) }),
  );

  app.put(
    '/api/v1/agents/:agent_id/tool-permissions/:action_id',
    {
      config: { permission: 'build_agents' },
      ...op(
        'setToolPermission',
        'Sets whether one write or send tool of the agent asks before it runs (audited)',
        {
          params: toolPermissionParamsSchema,
          body: toolPermissionUpdateSchema,
          response: { 200: toolPermissionSchema, ...objectErrors },
        },
      ),
    },
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
