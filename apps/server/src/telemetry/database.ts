import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { LogEvent } from 'kysely';
import { cleanAttributes, inheritedAttributes, tracer, tracingOn } from './tracing.ts';

/**
 * A span per database statement, from Kysely's query log (called once a statement has answered or
 * failed, with its duration, in the caller's context): the statement's text with its placeholders,
 * never the values bound to them. Nothing is done while tracing is off.
 */
export function traceQueries(system: 'sqlite' | 'postgresql') {
  return (event: LogEvent) => {
    if (!tracingOn()) return;
    const end = performance.timeOrigin + performance.now();
    const text = event.query.sql;
    const operation = /^\s*([a-z]+)/i.exec(text)?.[1]?.toUpperCase() ?? 'QUERY';
    const span = tracer().startSpan(operation, {
      kind: SpanKind.CLIENT,
      startTime: end - event.queryDurationMillis,
      attributes: cleanAttributes({
        ...inheritedAttributes(),
        'db.system.name': system,
        'db.operation.name': operation,
        'db.query.text': text,
      }),
    });
    if (event.level === 'error') {
      span.setAttribute('error.type', event.error instanceof Error ? event.error.name : 'error');
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end(end);
  };
}
