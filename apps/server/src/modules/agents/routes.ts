import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  type Agent,
  agentCreateSchema,
  agentExportDocumentSchema,
  agentExportQuerySchema,
  type AgentExportDocument,
  agentParamsSchema,
  agentRestoreResultSchema,
  agentSchema,
  agentUpdateSchema,
  agentVersionListSchema,
  agentVersionParamsSchema,
  errorSchema,
  idempotentCreateHeadersSchema,
  validationErrorSchema,
} from '@cadre/contract';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import type { AgentArchives, ConnectNoAuthService } from './ports.ts';
import { notFound } from '../../http/errors.ts';
import { keyAllows } from '../../http/auth.ts';
import { createOnce } from '../../http/idempotency.ts';
import { objectErrors, operations } from '../../http/openapi.ts';
import type { ConnectedServices } from './exchange.ts';
import type { AgentsService } from './service.ts';
import { agentImportRoute, ARCHIVE_TYPE } from './import-route.ts';
import { agentListRoute } from './list-route.ts';
import { agentTemplateRoutes } from './template-routes.ts';
import { toolPermissionRoutes } from './tool-permission-routes.ts';

const op = operations('agents');

/** A bad field is a validation list; an archive that cannot be read says why in words. */
const fileErrors = z.union([validationErrorSchema, errorSchema]);

/** The agent calls of spec section 7; every one is scoped to the caller. */
export const agentsRoutes: FastifyPluginAsyncZod<{
  agents: AgentsService;
  db: Db;
  connectedServices: ConnectedServices;
  /** The export with its files, as a zip (the knowledge module). */
  archives: AgentArchives;
  /** Connects a template's services (the services module). */
  connectNoAuthService: ConnectNoAuthService;
  /** READY_ASSISTANT: a new account is offered the assistant template. */
  readyAssistant: boolean;
}> = async (app, { agents, db, connectedServices, archives, connectNoAuthService, readyAssistant }) => {
  await app.register(toolPermissionRoutes, { agents });
  await app.register(agentTemplateRoutes, {
    agents,
    db,
    connectedServices,
    connectNoAuthService,
    readyAssistant,
  });
  await app.register(agentImportRoute, { agents, db, connectedServices, archives });

  await app.register(agentListRoute, { agents });

  app.post(
    '/api/v1/agents/',
    {
      config: { permission: 'build_agents' },
      // Spelled out: a replayed answer's status is the stored one, which the typed helper would
      // narrow to the declared codes.
      schema: {
        operationId: 'createAgent',
        tags: ['agents'],
        summary: 'Creates an agent',
        headers: idempotentCreateHeadersSchema,
        body: agentCreateSchema,
        response: { 201: agentSchema, ...objectErrors },
      },
    },
    async (request, reply) => {
      return createOnce<Agent>(db, request, reply, { userId: request.user.id, status: 201 }, (record) =>
        agents.create(request.user, request.body, record),
      );
    },
  );

  app.get(
    '/api/v1/agents/:agent_id/agent',
    {
      config: { apiKeyScope: 'agents:read' },
      ...op('getAgent', 'One of the caller’s agents', {
        params: agentParamsSchema,
        response: { 200: agentSchema, ...objectErrors },
      }),
    },
    async (request) => {
      if (!keyAllows(request.apiKey, request.params.agent_id)) throw notFound('Agent not found');
      return agents.get(request.user.id, request.params.agent_id);
    },
  );

  // PATCH is partial: only the fields sent change (the web app sends all four). Sending
  // `tool_ids` replaces the whole tool list; `guidelines: null` or blank clears the guidelines.
  app.patch(
    '/api/v1/agents/:agent_id',
    {
      config: { permission: 'build_agents' },
      ...op('updateAgent', 'Updates one of the caller’s agents', {
        params: agentParamsSchema,
        body: agentUpdateSchema,
        response: { 200: agentSchema, ...objectErrors },
      }),
    },
    async (request) => agents.update(request.user, request.params.agent_id, request.body),
  );

  app.delete(
    '/api/v1/agents/:agent_id',
    {
      config: { permission: 'build_agents' },
      ...op('deleteAgent', 'Deletes one of the caller’s agents', {
        params: agentParamsSchema,
        response: { 204: z.null().describe('Deleted'), ...objectErrors },
      }),
    },
    async (request, reply) => {
      await agents.delete(request.user.id, request.params.agent_id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/agents/:agent_id/versions',
    op('listAgentVersions', 'Every saved version of one of the caller’s agents, newest first', {
      params: agentParamsSchema,
      response: { 200: agentVersionListSchema, ...objectErrors },
    }),
    async (request) => agents.versions(request.user.id, request.params.agent_id),
  );

  app.post(
    '/api/v1/agents/:agent_id/versions/:number/restore',
    {
      config: { permission: 'build_agents' },
      ...op(
        'restoreAgentVersion',
        'Puts the agent back as a version was; the restore is saved as a new version',
        {
          params: agentVersionParamsSchema,
          response: { 200: agentRestoreResultSchema, ...objectErrors },
        },
      ),
    },
    async (request) => agents.restore(request.user, request.params.agent_id, request.params.number),
  );

  app.get(
    '/api/v1/agents/:agent_id/export',
    op(
      'exportAgent',
      'The agent as a document to import elsewhere: tools by stable keys, never ids or secrets; with `include=files` (or `Accept: application/zip`) a zip holding the document and the knowledge files',
      {
        params: agentParamsSchema,
        querystring: agentExportQuerySchema,
        response: {
          200: agentExportDocumentSchema.describe(
            'The document (application/json), or the zip with the files (application/zip)',
          ),
          ...objectErrors,
          422: fileErrors,
        },
      },
    ),
    async (request, reply) => {
      const document = await agents.exportDocument(request.user.id, request.params.agent_id);
      const base = document.agent.name.replace(/[^\w.-]+/g, '-').slice(0, 60) || 'agent';
      const zipped =
        request.query.include === 'files' ||
        (request.query.include === undefined && (request.headers.accept ?? '').includes(ARCHIVE_TYPE));
      if (!zipped)
        return reply
          .header('content-disposition', `attachment; filename="${base}.agent.json"`)
          .send(document);
      const zip = await archives.write(request.user.id, request.params.agent_id, document);
      // A Buffer goes out as it is: the response schema describes the JSON form only.
      return reply
        .type(ARCHIVE_TYPE)
        .header('content-disposition', `attachment; filename="${base}.agent.zip"`)
        .send(Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength) as unknown as AgentExportDocument);
    },
  );
};
