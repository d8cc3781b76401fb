import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthSchema } from '@cadre/contract';
import type { AppDeps } from '../../deps.ts';

/** Routes anyone may call without a token. The API core's route inventory test lists them. */
export const publicRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/api/v1/public/health/healthcheck',
    {
      schema: {
        operationId: 'healthcheck',
        tags: ['public'],
        summary: 'Whether the server and its database answer',
        response: { 200: healthSchema, 503: healthSchema },
      },
      config: { public: true },
    },
    async (request, reply) => {
      try {
        await db.ping();
        return { status: 'ok' as const, database: 'ok' as const };
      } catch (err) {
        request.log.warn({ err }, 'health check: database unavailable');
        return reply.code(503).send({ status: 'degraded', database: 'unavailable' });
      }
    },
  );
};
