import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  type AgentImportResult,
  agentImportResultSchema,
  agentTemplateListSchema,
  agentTemplateParamsSchema,
  errorSchema,
  idempotentCreateHeadersSchema,
} from '@cadre/contract';
import type { Db } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import { createOnce } from '../../http/idempotency.ts';
import { objectErrors } from '../../http/openapi.ts';
import type { ConnectedServices } from './exchange.ts';
import type { ConnectNoAuthService } from './ports.ts';
import type { AgentsService } from './service.ts';
import { AGENT_TEMPLATES, READY_ASSISTANT_TEMPLATE, templateDocument } from './templates.ts';

/**
 * The agent templates: the list, and an agent made from one in a single call, with the services
 * its tools need connected for the caller first (all need no account), so it works at once.
 */
export const agentTemplateRoutes: FastifyPluginAsyncZod<{
  agents: AgentsService;
  db: Db;
  connectedServices: ConnectedServices;
  connectNoAuthService: ConnectNoAuthService;
  /** READY_ASSISTANT: offer the assistant template to a new account. */
  readyAssistant: boolean;
}> = async (app, { agents, db, connectedServices, connectNoAuthService, readyAssistant }) => {
  app.get(
    '/api/v1/agent-templates/',
    {
      schema: {
        operationId: 'listAgentTemplates',
        tags: ['agents'],
        summary: 'The ready-made agents one call creates, and the one a new account is offered',
        response: { 200: agentTemplateListSchema, 401: errorSchema },
      },
    },
    async () => ({
      templates: AGENT_TEMPLATES,
      ready_assistant: readyAssistant ? READY_ASSISTANT_TEMPLATE : null,
    }),
  );

  app.post(
    '/api/v1/agent-templates/:template_id/agents',
    {
      config: { permission: 'build_agents' },
      schema: {
        operationId: 'createAgentFromTemplate',
        tags: ['agents'],
        summary:
          'Creates an agent from a template: connects the services its tools need (none needs an account), then attaches the tools',
        headers: idempotentCreateHeadersSchema,
        params: agentTemplateParamsSchema,
        response: { 201: agentImportResultSchema, ...objectErrors },
      },
    },
    async (request, reply) => {
      const document = templateDocument(request.params.template_id);
      if (!document) throw notFound('Template not found');
      const userId = request.user.id;
      return createOnce<AgentImportResult>(db, request, reply, { userId, status: 201 }, async (record) => {
        const connected = await connectedServices(userId);
        for (const serviceId of await agents.servicesOfTools(userId, document.agent.tools))
          if (!connected.has(serviceId)) await connectNoAuthService(userId, serviceId);
        return agents.importDocument(request.user, document, connectedServices, {
          recordAnswer: record,
          template: request.params.template_id,
        });
      });
    },
  );
};
