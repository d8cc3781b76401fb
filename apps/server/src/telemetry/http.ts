import crypto from 'node:crypto';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http/errors.ts';
import type { AppMetrics } from './metrics.ts';
import { tracer, tracingOn } from './tracing.ts';

/** Where Prometheus scrapes (outside `/backend/api`, like the OpenAPI document). */
export const METRICS_PATH = '/backend/metrics';

/**
 * A server span and the request metrics for every request. The span is made current for the rest
 * of the request (the hook's `done` runs inside it), so the database, model and tool spans of the
 * request are its children; a caller's `traceparent` is continued. It ends when the response is
 * closed, which also covers streamed and hijacked answers. Attributes: method, route pattern, path
 * without the query string (which may carry OAuth codes), status and the signed-in user's id.
 */
export function registerHttpTelemetry(app: FastifyInstance, metrics: AppMetrics) {
  app.addHook('onRequest', (request, reply, done) => {
    const started = performance.now();
    const route = () => request.routeOptions.url ?? 'unmatched';
    const span = tracingOn()
      ? tracer().startSpan(
          request.method,
          {
            kind: SpanKind.SERVER,
            attributes: {
              'http.request.method': request.method,
              'url.path': request.url.split('?')[0],
              'url.scheme': request.protocol,
            },
          },
          propagation.extract(ROOT_CONTEXT, request.headers),
        )
      : undefined;
    reply.raw.once('close', () => {
      const status = reply.raw.statusCode;
      metrics.httpRequest(request.method, route(), status, (performance.now() - started) / 1000);
      if (!span) return;
      span.updateName(`${request.method} ${route()}`);
      span.setAttributes({ 'http.route': route(), 'http.response.status_code': status });
      const userId = (request.user as { id?: number } | null)?.id;
      if (userId !== undefined) span.setAttribute('cadre.user.id', userId);
      const agentId = Number((request.params as { agent_id?: unknown } | undefined)?.agent_id);
      if (Number.isInteger(agentId)) span.setAttribute('gen_ai.agent.id', String(agentId));
      if (status >= 500) {
        span.setAttribute('error.type', String(status));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    });
    if (!span) return done();
    context.with(trace.setSpan(context.active(), span), done);
  });
}

/**
 * `GET /backend/metrics`: Prometheus text for a scraper that sends the configured token as a bearer
 * token (compared in constant time); registered only when METRICS_SCRAPE_TOKEN is set.
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: AppMetrics, token: string) {
  const expected = crypto.createHash('sha256').update(token).digest();
  app.get(METRICS_PATH, { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    const digest = crypto.createHash('sha256').update(given).digest();
    if (!crypto.timingSafeEqual(digest, expected)) {
      throw new HttpError('unauthorized', 'A valid scrape token is required', {
        'www-authenticate': 'Bearer realm="metrics"',
      });
    }
    const { contentType, body } = await metrics.scrape();
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  });
}
