import crypto from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  agentParamsSchema,
  errorSchema,
  idempotentCreateHeadersSchema,
  KNOWLEDGE_FILE_FIELD,
  knowledgeDeleteQuerySchema,
  knowledgeUploadQuerySchema,
  knowledgeFileListSchema,
  knowledgeFileParamsSchema,
  knowledgeFileSchema,
  validationErrorSchema,
  type KnowledgeFile,
} from '@cadre/contract';
import { z } from 'zod';
import type { KnowledgeConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { HttpError } from '../../http/errors.ts';
import { createOnce } from '../../http/idempotency.ts';
import { operations } from '../../http/openapi.ts';
import { ACCEPTED } from './kinds.ts';
import type { KnowledgeService, Upload } from './service.ts';

const op = operations('knowledge');
const errors = { 401: errorSchema, 404: errorSchema, 422: validationErrorSchema };

/** Room for the multipart boundaries and part headers around the file itself. */
const ENVELOPE_BYTES = 16 * 1024;

/**
 * An agent's knowledge files (docs/api.md). Uploads are multipart with one part, `file`; the size
 * is capped before the body is read (the declared length) and while it is read (busboy's limit),
 * the type is sniffed from the bytes, and the name is only ever display text (E1-E3).
 */
export const knowledgeRoutes: FastifyPluginAsyncZod<{
  db: Db;
  knowledge: KnowledgeService;
  settings: KnowledgeConfig;
}> = async (app, { db, knowledge, settings }) => {
  const tooLarge = () =>
    new HttpError(
      'payload_too_large',
      `The file is larger than ${settings.maxFileBytes} bytes, the most a knowledge file may be (KNOWLEDGE_MAX_FILE_BYTES).`,
    );
  await app.register(multipart, {
    limits: {
      fileSize: settings.maxFileBytes,
      files: 1,
      fields: 0,
      parts: 1,
      fieldNameSize: 64,
      headerPairs: 20,
    },
    throwFileSizeLimit: true,
  });

  app.post(
    '/api/v1/agents/:agent_id/files',
    {
      config: { permission: 'build_agents' },
      // Refused on its declared length before a byte of the body is read.
      onRequest: async (request) => {
        const length = Number(request.headers['content-length']);
        if (length > settings.maxFileBytes + ENVELOPE_BYTES) throw tooLarge();
      },
      ...op('uploadKnowledgeFile', `Attaches a file (${ACCEPTED}) to one of the caller’s agents`, {
        params: agentParamsSchema,
        headers: idempotentCreateHeadersSchema,
        querystring: knowledgeUploadQuerySchema,
        multipartBody: {
          type: 'object',
          required: [KNOWLEDGE_FILE_FIELD],
          properties: { [KNOWLEDGE_FILE_FIELD]: { type: 'string', format: 'binary' } },
        },
        response: {
          201: knowledgeFileSchema,
          409: errorSchema,
          413: errorSchema,
          415: errorSchema,
          ...errors,
          // A bad path id is a validation list; a file that cannot be taken says why in words.
          422: z.union([validationErrorSchema, errorSchema]),
        },
      }),
    },
    async (request, reply) => {
      if (!request.isMultipart())
        throw new HttpError(
          'unsupported_media_type',
          `Send the file as multipart/form-data, in the part "${KNOWLEDGE_FILE_FIELD}".`,
        );
      let upload: Upload | undefined;
      try {
        // Every part is read, so a second one (which busboy's limits refuse) is never ignored.
        for await (const part of request.parts()) {
          if (part.type !== 'file' || part.fieldname !== KNOWLEDGE_FILE_FIELD)
            throw new HttpError(
              'unprocessable_content',
              `The file must be sent in the part "${KNOWLEDGE_FILE_FIELD}", not "${part.fieldname}".`,
            );
          upload = { filename: part.filename, mimetype: part.mimetype, bytes: await part.toBuffer() };
        }
      } catch (error) {
        throw multipartError(error, tooLarge);
      }
      if (!upload)
        throw new HttpError(
          'unprocessable_content',
          `The form has no file; send it in the part "${KNOWLEDGE_FILE_FIELD}".`,
        );
      // A retry with the same Idempotency-Key (after a lost answer) gets the first file, not a copy.
      const { agent_id: agentId } = request.params;
      const { batch } = request.query;
      const content = crypto
        .createHash('sha256')
        .update(JSON.stringify([agentId, batch ?? null, upload.filename, upload.mimetype]))
        .update(upload.bytes)
        .digest('hex');
      return createOnce<KnowledgeFile>(
        db,
        request,
        reply,
        { userId: request.user.id, status: 201, content },
        (record) => knowledge.upload(request.user, agentId, upload, batch, record),
      );
    },
  );

  app.get(
    '/api/v1/agents/:agent_id/files',
    op('listKnowledgeFiles', 'The knowledge files of one of the caller’s agents, oldest first', {
      params: agentParamsSchema,
      response: { 200: knowledgeFileListSchema, ...errors },
    }),
    async (request) => knowledge.list(request.user.id, request.params.agent_id),
  );

  app.get(
    '/api/v1/agents/:agent_id/files/:file_id/content',
    op('downloadKnowledgeFile', 'The bytes of one knowledge file, as an attachment', {
      params: knowledgeFileParamsSchema,
      response: { 200: z.any().describe('The file'), ...errors },
    }),
    async (request, reply) => {
      const { file, bytes } = await knowledge.content(
        request.user.id,
        request.params.agent_id,
        request.params.file_id,
      );
      // The name goes out only encoded (RFC 5987), never as a path; the type is the sniffed one.
      const fallback = file.name.replace(/[^\w.-]+/g, '_');
      return reply
        .type(file.media_type)
        .header(
          'content-disposition',
          `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
        )
        .send(bytes);
    },
  );

  app.delete(
    '/api/v1/agents/:agent_id/files/:file_id',
    {
      config: { permission: 'build_agents' },
      ...op('deleteKnowledgeFile', 'Deletes one knowledge file of one of the caller’s agents', {
        params: knowledgeFileParamsSchema,
        querystring: knowledgeDeleteQuerySchema,
        response: { 204: z.null().describe('Deleted'), ...errors },
      }),
    },
    async (request, reply) => {
      await knowledge.delete(
        request.user,
        request.params.agent_id,
        request.params.file_id,
        request.query.erase === 'true',
      );
      return reply.code(204).send(null);
    },
  );
};

/** Multipart's own errors, as the API's clear 4xx answers. */
function multipartError(error: unknown, tooLarge: () => HttpError): unknown {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return new HttpError(
      'payload_too_large',
      `Send one part only: the file, in the part "${KNOWLEDGE_FILE_FIELD}".`,
    );
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_MULTIPART_INVALID_CONTENT_TYPE')
    return new HttpError(
      'unsupported_media_type',
      `Send the file as multipart/form-data, in the part "${KNOWLEDGE_FILE_FIELD}".`,
    );
  if ((error as { statusCode?: number }).statusCode === 400 || /boundary|multipart/i.test(String(error)))
    return new HttpError('bad_request', 'The multipart body is malformed.');
  return error;
}
