import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema, userExportSchema, userProfileSchema } from '@cadre/contract';
import { z } from 'zod';
import { notFound } from '../../http/errors.ts';
import { operations } from '../../http/openapi.ts';
import type { UsersService } from './service.ts';

const op = operations('users');

const claimText = (value: unknown, max: number) =>
  typeof value === 'string' && value.length <= max && !value.includes('\u0000') ? value : undefined;

export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (app, { users }) => {
  app.post(
    '/api/v1/users/check-user',
    op('checkUser', 'Creates or updates the signed-in user from the token claims', {
      response: { 200: userProfileSchema, 401: errorSchema },
    }),
    async (request) => {
      const claims = request.tokenClaims;
      return users.checkUser(
        request.user,
        {
          email: claimText(claims.email, 320),
          name: claimText(claims.name, 200),
          picture: claimText(claims.picture, 2000),
        },
        claims,
      );
    },
  );

  app.get(
    '/api/v1/users/me',
    op('getMe', "The signed-in user's profile, with their role", {
      response: { 200: userProfileSchema, 401: errorSchema },
    }),
    async (request, reply) => {
      const profile = await users.profile(request.user.id);
      if (!profile) throw notFound();
      reply.header('cache-control', 'no-store');
      return profile;
    },
  );

  app.get(
    '/api/v1/users/me/export',
    op('exportMyData', 'Everything Cadre stores about the signed-in user, without credentials', {
      response: { 200: userExportSchema, 401: errorSchema },
    }),
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return users.exportData(request.user);
    },
  );

  app.delete(
    '/api/v1/users/me',
    op('deleteMyData', 'Deletes everything stored about the signed-in user and revokes their connections', {
      response: { 204: z.null().describe('Deleted'), 401: errorSchema, 409: errorSchema },
    }),
    async (request, reply) => {
      await users.deleteOwnAccount(request.user);
      return reply.code(204).send(null);
    },
  );
};
