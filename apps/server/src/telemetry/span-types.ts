/** The span types of the `Telemetry` port (kernel.ts), here so the tracing layer needs nothing else. */

/**
 * Span attributes: ids, names of models and tools, counts and outcomes. Never a prompt, an answer,
 * tool arguments or results, or a secret (docs/security.md), except the model call's messages when
 * the operator opted in (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT).
 */
export type SpanAttributes = Record<string, string | number | boolean | string[] | undefined>;

/** A span being recorded (a no-op while tracing is off). */
export interface SpanHandle {
  setAttributes(attributes: SpanAttributes): void;
  /** Marks the span failed with a short error type (a category or code, never a message). */
  fail(errorType: string): void;
  end(): void;
}
