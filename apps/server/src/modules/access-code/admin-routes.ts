import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accessCodeCreatedSchema,
  accessCodeCreateSchema,
  accessCodeListSchema,
  accessCodeParamsSchema,
  errorSchema,
} from '@cadre/contract';
import { z } from 'zod';
import { objectErrors, operations } from '../../http/openapi.ts';
import type { AccessCodesAdmin } from './admin.ts';

const op = operations('admin');
/** Every admin route: the policy lets only admins through (security/policy.ts). */
const admin = { config: { permission: 'administer' } } as const;
const errors = { ...objectErrors, 403: errorSchema };

/** The admin console's Access codes under `/api/v1/admin/access-codes` (docs/api.md, "Admin"). */
export const accessCodeAdminRoutes: FastifyPluginAsyncZod<{ codes: AccessCodesAdmin }> = async (
  app,
  { codes },
) => {
  app.get(
    '/api/v1/admin/access-codes',
    {
      ...admin,
      ...op('listAccessCodes', 'The access codes: those of the environment (read only) and those made here', {
        response: { 200: accessCodeListSchema, ...errors },
      }),
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return codes.list();
    },
  );

  app.post(
    '/api/v1/admin/access-codes',
    {
      ...admin,
      ...op('createAccessCode', 'Makes an access code; the answer is the only time it is shown whole', {
        body: accessCodeCreateSchema,
        response: { 201: accessCodeCreatedSchema, ...errors },
      }),
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(await codes.create(request.user, request.body));
    },
  );

  app.delete(
    '/api/v1/admin/access-codes/:code_id',
    {
      ...admin,
      ...op('revokeAccessCode', 'Revokes an access code made here (it stays listed, with its uses)', {
        params: accessCodeParamsSchema,
        response: { 204: z.null().describe('Revoked'), ...errors },
      }),
    },
    async (request, reply) => {
      await codes.revoke(request.user, request.params.code_id);
      return reply.code(204).send(null);
    },
  );
};
