import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  healthSchema,
  livenessSchema,
  notReadySchema,
  readinessSchema,
  unhealthySchema,
} from '@cadre/contract';
import type { Db } from '../../db/database.ts';
import type { Lifecycle } from '../../kernel.ts';
import { createReadinessCheck } from './readiness.ts';

/** Routes anyone may call without a token. The API core's route inventory test lists them. */
export const publicRoutes: FastifyPluginAsyncZod<{ db: Db; lifecycle: Lifecycle }> = async (
  app,
  { db, lifecycle },
) => {
  app.get(
    '/api/v1/public/health/healthcheck',
    {
      schema: {
        operationId: 'healthcheck',
        tags: ['public'],
        summary: 'Whether the server and its database answer',
        response: { 200: healthSchema, 503: unhealthySchema },
      },
      config: { public: true },
    },
    async (request, reply) => {
      try {
        await db.ping();
        return { status: 'ok' as const, database: 'ok' as const };
      } catch (err) {
        request.log.warn({ err }, 'health check: database unavailable');
        return reply.code(503).send({ status: 'degraded', database: 'unavailable', code: 'db_unavailable' });
      }
    },
  );

  // Liveness for orchestrators: restart the process only when this fails. It never touches the
  // database, so an outage there does not turn into a restart loop. The count of unhandled
  // rejections (R12) is for whoever watches the process; it does not change the answer.
  app.get(
    '/api/v1/public/health/live',
    {
      schema: {
        operationId: 'healthLive',
        tags: ['public'],
        summary: 'Whether the process is alive (never checks the database)',
        response: { 200: livenessSchema },
      },
      config: { public: true },
    },
    async () => ({ status: 'live' as const, unhandled_rejections: lifecycle.unhandledRejections }),
  );

  // Readiness for load balancers: route traffic here only while this answers 200. It fails for
  // this instance's own reasons, not for a database outage every instance shares (readiness.ts).
  const checkReadiness = createReadinessCheck(db, lifecycle);
  app.get(
    '/api/v1/public/health/ready',
    {
      schema: {
        operationId: 'healthReady',
        tags: ['public'],
        summary:
          'Whether this instance can take traffic: migrations applied, not shutting down; `database` says whether the database took a write within 1 s',
        response: { 200: readinessSchema, 503: notReadySchema },
      },
      config: { public: true },
    },
    async (request, reply) => {
      const result = await checkReadiness();
      if (result.reason === undefined) {
        if (result.database !== 'ok') request.log.warn({ database: result.database }, 'database unavailable');
        return { status: 'ready' as const, database: result.database };
      }
      const { reason } = result;
      if (reason !== 'draining') request.log.warn({ reason }, 'not ready');
      const code = reason.startsWith('database_') ? 'db_unavailable' : 'unavailable';
      return reply.code(503).header('retry-after', '5').send({ status: 'not_ready', reason, code });
    },
  );
};
