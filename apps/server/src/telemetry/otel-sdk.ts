import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import { setTracing } from './tracing.ts';

export interface TracingOptions {
  serviceName: string;
  /** Where spans go instead of OTLP (tests: an in-memory exporter). */
  spanProcessors?: SpanProcessor[];
}

export interface StartedTracing {
  /** Sends the spans still buffered and stops recording. */
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry's Node SDK: the one place that loads it, and only when the operator set
 * OTEL_EXPORTER_OTLP_ENDPOINT (`start.ts`), so a server without tracing never loads the SDK or its
 * exporters. Spans go over OTLP as the standard OTEL_* variables say (protocol, headers, sampler:
 * the SDK reads them itself); no automatic instrumentation is loaded: Cadre makes its own HTTP,
 * database, model and tool spans (`tracing.ts`). Metrics go to Prometheus, not through the SDK.
 *
 * The exporter is a client whose address only the operator sets, like the issuer's discovery, so
 * it is not routed through the tools' egress guard (eslint.config.js allows this file alone).
 */
export async function startTracing(options: TracingOptions): Promise<StartedTracing> {
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({
    serviceName: options.serviceName,
    spanProcessors: options.spanProcessors,
    instrumentations: [],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  setTracing(true);
  return {
    async shutdown() {
      setTracing(false);
      await sdk.shutdown();
    },
  };
}
