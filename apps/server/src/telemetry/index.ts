import type { Config } from '../config.ts';
import type { Telemetry } from '../kernel.ts';
import { createMetrics, NO_METRICS, type AppMetrics } from './metrics.ts';
import { inSpan, startSpan, tracingOn } from './tracing.ts';

export { registerHttpTelemetry, registerMetricsRoute, METRICS_PATH } from './http.ts';
export { startTracing, type StartedTracing, type TracingOptions } from './otel-sdk.ts';
export type { AppMetrics } from './metrics.ts';

/**
 * The app's telemetry: spans whenever an OpenTelemetry SDK was started in this process (before the
 * app is built), and Prometheus metrics when a scrape token is configured. Both off, every call is
 * a no-op and `active` tells callers they may skip their wrapping.
 */
export async function createTelemetry(
  config: Pick<Config, 'telemetry'>,
): Promise<{ telemetry: Telemetry; metrics: AppMetrics }> {
  const metrics = config.telemetry.metricsScrapeToken ? await createMetrics() : NO_METRICS;
  const telemetry: Telemetry = {
    active: tracingOn() || metrics !== NO_METRICS,
    captureMessageContent: config.telemetry.captureMessageContent,
    span: inSpan,
    startSpan,
    metrics,
  };
  return { telemetry, metrics };
}
