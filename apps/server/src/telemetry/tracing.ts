import {
  context,
  createContextKey,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import type { SpanAttributes, SpanHandle } from './span-types.ts';

/**
 * Spans through OpenTelemetry's API only (never the SDK, which `otel-sdk.ts` loads when the operator
 * configured an endpoint). Until then the API hands out non-recording spans, and `tracingOn()` lets
 * the hot paths skip even those.
 */

let tracing = false;

/** Whether an SDK was started in this process (OTEL_EXPORTER_OTLP_ENDPOINT, or a test's exporter). */
export const tracingOn = () => tracing;
export const setTracing = (on: boolean) => {
  tracing = on;
};

export const tracer = () => trace.getTracer('cadre');

/** Attributes every span started inside carries (the run's user and agent). */
const INHERITED = createContextKey('cadre.inherited-attributes');

export const inheritedAttributes = (ctx: Context = context.active()): SpanAttributes =>
  (ctx.getValue(INHERITED) as SpanAttributes | undefined) ?? {};

/** OpenTelemetry takes no undefined values; they are left out. */
export function cleanAttributes(attributes: SpanAttributes): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = value;
  return out;
}

const handleOf = (span: Span): SpanHandle => ({
  setAttributes: (attributes) => void span.setAttributes(cleanAttributes(attributes)),
  fail: (errorType) => {
    span.setAttribute('error.type', errorType);
    span.setStatus({ code: SpanStatusCode.ERROR });
  },
  end: () => span.end(),
});

const NO_SPAN: SpanHandle = { setAttributes: () => {}, fail: () => {}, end: () => {} };

const kindOf = (kind: 'internal' | 'client' | undefined) =>
  kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL;

/** A span the caller ends, child of the current one, with the inherited attributes. */
export function startSpan(
  name: string,
  attributes: SpanAttributes,
  options: { kind?: 'internal' | 'client' } = {},
): SpanHandle {
  if (!tracing) return NO_SPAN;
  const span = tracer().startSpan(name, {
    kind: kindOf(options.kind),
    attributes: cleanAttributes({ ...inheritedAttributes(), ...attributes }),
  });
  return handleOf(span);
}

/**
 * Runs `fn` in a new span made current for everything it awaits, so database, model and tool spans
 * inside become its children; `inherit` is added to those spans too. A thrown error marks the span
 * failed with the error's name (its message may quote a prompt) and is thrown on.
 */
export async function inSpan<T>(
  name: string,
  attributes: SpanAttributes,
  fn: (span: SpanHandle) => Promise<T>,
  options: { inherit?: SpanAttributes; kind?: 'internal' | 'client' } = {},
): Promise<T> {
  if (!tracing) return fn(NO_SPAN);
  const inherited = { ...inheritedAttributes(), ...options.inherit };
  const span = tracer().startSpan(name, {
    kind: kindOf(options.kind),
    attributes: cleanAttributes({ ...inherited, ...attributes }),
  });
  const handle = handleOf(span);
  const ctx = trace.setSpan(context.active(), span).setValue(INHERITED, inherited);
  try {
    return await context.with(ctx, () => fn(handle));
  } catch (error) {
    handle.fail(error instanceof Error ? error.name : 'error');
    throw error;
  } finally {
    span.end();
  }
}
