import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AGENT_IMPORT_LIMIT_BYTES,
  agentExportSchema,
  type AgentImportResult,
  agentImportResultSchema,
  errorSchema,
  idempotentCreateHeadersSchema,
  validationErrorSchema,
} from '@cadre/contract';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import type { AgentArchives } from './ports.ts';
import { ValidationFailure } from '../../http/errors.ts';
import { createOnce } from '../../http/idempotency.ts';
import { objectErrors } from '../../http/openapi.ts';
import type { ConnectedServices } from './exchange.ts';
import type { AgentsService } from './service.ts';

export const ARCHIVE_TYPE = 'application/zip';

/**
 * `POST /api/v1/agents/import`: the export document as JSON (at most 256 KiB), or the zip export
 * with its knowledge files (at most KNOWLEDGE_MAX_ARCHIVE_BYTES). Each body type has its own parser
 * and limit in this route's scope, so a chunked body is cut off at its own limit too. The zip's
 * agent.json is the body the route validates; the files' bytes wait beside the request, read
 * within the limits of an upload (archive.ts in modules/knowledge).
 */
export const agentImportRoute: FastifyPluginAsyncZod<{
  agents: AgentsService;
  db: Db;
  connectedServices: ConnectedServices;
  archives: AgentArchives;
}> = async (app, { agents, db, connectedServices, archives }) => {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: AGENT_IMPORT_LIMIT_BYTES },
    json,
  );
  const archivedFiles = new WeakMap<object, Map<string, Uint8Array>>();
  app.addContentTypeParser(
    ARCHIVE_TYPE,
    { parseAs: 'buffer', bodyLimit: archives.maxArchiveBytes },
    (request, body, done) => {
      try {
        const { document, entries } = archives.read(body as Buffer);
        archivedFiles.set(request, entries);
        done(null, document);
      } catch (error) {
        done(error as Error);
      }
    },
  );

  app.post(
    '/api/v1/agents/import',
    {
      config: { permission: 'build_agents' },
      schema: {
        operationId: 'importAgent',
        tags: ['agents'],
        summary:
          'Creates an agent from an exported document (JSON), or from the zip export with its knowledge files (application/zip), with the tools this server offers',
        headers: idempotentCreateHeadersSchema,
        body: agentExportSchema,
        response: {
          201: agentImportResultSchema,
          413: errorSchema,
          ...objectErrors,
          // A bad field is a validation list; an archive that cannot be read says why in words.
          422: z.union([validationErrorSchema, errorSchema]),
        },
      },
    },
    async (request, reply) => {
      // A retry with the same Idempotency-Key gets the first answer, before any file is read again.
      // The key's hash covers the document, whose files carry their SHA-256.
      return createOnce<AgentImportResult>(
        db,
        request,
        reply,
        { userId: request.user.id, status: 201 },
        async (record) => {
          const entries = archivedFiles.get(request);
          if (!entries && request.body.files.length > 0)
            throw new ValidationFailure([
              {
                loc: ['body', 'files'],
                msg: 'lists knowledge files, which travel in the zip export only: import the .zip',
                type: 'files_without_archive',
              },
            ]);
          // Every file is checked and indexed before anything is written.
          const files = entries && (await archives.prepare(request.body.files, entries));
          return agents.importDocument(request.user, request.body, connectedServices, {
            files,
            recordAnswer: record,
          });
        },
      );
    },
  );
};
