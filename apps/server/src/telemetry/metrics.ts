import type { PoolStats } from '../db/database.ts';
import type { MetricsRecorder } from '../kernel.ts';

/** What the gauges read at each scrape: this instance's state now. */
export interface GaugeSources {
  /** The database pool's use (undefined on SQLite: no series). */
  pool(): PoolStats | undefined;
  /** Agent runs running on this instance. */
  runningRuns(): number;
}

/** Every recorder of the process: the port modules use, plus the HTTP layer's and the scrape. */
export interface AppMetrics extends MetricsRecorder {
  httpRequest(method: string, route: string, status: number, seconds: number): void;
  /** Where the gauges read from, once the app has made the pool and the runs (before any scrape). */
  watch(sources: GaugeSources): void;
  /** The Prometheus text exposition of every metric, and its content type. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

const noop = () => {};
export const NO_METRICS: AppMetrics = {
  httpRequest: noop,
  chatRun: noop,
  modelCall: noop,
  toolCall: noop,
  runLeasesExpired: noop,
  watch: noop,
  scrape: async () => ({ contentType: 'text/plain', body: '' }),
};

/** Chat runs and model calls last seconds to minutes; requests milliseconds to seconds. */
const LONG_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300];

/**
 * prom-client's counters and histograms, in a registry of this app's own (a second app in the same
 * process, as in tests, keeps its own). prom-client is loaded only when metrics are switched on
 * (METRICS_SCRAPE_TOKEN). Labels are bounded sets: methods, route patterns (not paths), statuses,
 * the operator's model ids, tool providers and outcomes; never a user, agent or thread id.
 */
export async function createMetrics(): Promise<AppMetrics> {
  const prom = await import('prom-client');
  const registry = new prom.Registry();
  prom.collectDefaultMetrics({ register: registry, prefix: 'cadre_' });
  const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
    new prom.Counter({ name, help, labelNames, registers: [registry] });
  const histogram = <L extends string>(name: string, help: string, labelNames: L[], buckets?: number[]) =>
    new prom.Histogram({ name, help, labelNames, registers: [registry], ...(buckets && { buckets }) });

  const requests = counter('cadre_http_requests_total', 'HTTP requests answered', [
    'method',
    'route',
    'status_code',
  ]);
  const requestSeconds = histogram('cadre_http_request_duration_seconds', 'HTTP request latency', [
    'method',
    'route',
    'status_code',
  ]);
  const runs = counter('cadre_chat_runs_total', 'Agent runs (chat, copilot, API, MCP, triggers) by outcome', [
    'source',
    'status',
  ]);
  const runSeconds = histogram(
    'cadre_chat_run_duration_seconds',
    'Agent run duration',
    ['source'],
    LONG_BUCKETS,
  );
  const modelCalls = counter('cadre_model_calls_total', 'Language model calls by outcome', [
    'model',
    'outcome',
  ]);
  const modelSeconds = histogram(
    'cadre_model_call_duration_seconds',
    'Language model call duration, to the end of its stream',
    ['model'],
    LONG_BUCKETS,
  );
  const tokens = counter('cadre_model_tokens_total', 'Tokens the models reported', ['model', 'direction']);
  const toolCalls = counter('cadre_tool_calls_total', 'Tool calls by outcome', ['provider', 'outcome']);
  const toolSeconds = histogram('cadre_tool_call_duration_seconds', 'Tool call latency', ['provider']);
  const errors = counter('cadre_errors_total', 'Failures: 5xx answers, failed runs, model and tool calls', [
    'kind',
  ]);
  const leaseExpiries = counter(
    'cadre_run_lease_expiries_total',
    'Runs of another instance whose lease ran out, released by this instance',
    [],
  );
  let sources: GaugeSources | undefined;
  /** A gauge set from `read` at each scrape. */
  const gauge = <L extends string>(
    name: string,
    help: string,
    labelNames: L[],
    read: (set: (value: number, labels?: Partial<Record<L, string>>) => void) => void,
  ) =>
    new prom.Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        this.reset();
        read((value, labels) => (labels ? this.set(labels, value) : this.set(value)));
      },
    });
  gauge('cadre_chat_runs_running', 'Agent runs running on this instance now', [], (set) =>
    set(sources?.runningRuns() ?? 0),
  );
  /** The pool's gauges, made only for a database with a pool (PostgreSQL): SQLite has none. */
  const poolGauges = (pool: () => PoolStats | undefined) => {
    const read = <T>(use: (stats: PoolStats) => T) => {
      const stats = pool();
      return stats && use(stats);
    };
    gauge(
      'cadre_db_pool_size',
      'Connections this instance may open for queries (DATABASE_POOL_SIZE)',
      [],
      (set) => read((stats) => set(stats.size)),
    );
    gauge(
      'cadre_db_pool_connections',
      'Open query connections of this instance, by state',
      ['state'],
      (set) =>
        read((stats) => {
          set(stats.inUse, { state: 'in_use' });
          set(stats.idle, { state: 'idle' });
        }),
    );
    gauge(
      'cadre_db_pool_waiting',
      'Queries waiting for a connection of this instance (all in use)',
      [],
      (set) => read((stats) => set(stats.waiting)),
    );
  };

  return {
    httpRequest(method, route, status, seconds) {
      const labels = { method, route, status_code: String(status) };
      requests.inc(labels);
      requestSeconds.observe(labels, seconds);
      if (status >= 500) errors.inc({ kind: 'http' });
    },
    chatRun(source, status, seconds) {
      runs.inc({ source, status });
      runSeconds.observe({ source }, seconds);
      if (status === 'error') errors.inc({ kind: 'run' });
    },
    modelCall(model, outcome, seconds, used) {
      modelCalls.inc({ model, outcome });
      modelSeconds.observe({ model }, seconds);
      if (used) {
        tokens.inc({ model, direction: 'input' }, used.input);
        tokens.inc({ model, direction: 'output' }, used.output);
      }
      if (outcome === 'error') errors.inc({ kind: 'model' });
    },
    toolCall(provider, outcome, seconds) {
      toolCalls.inc({ provider, outcome });
      toolSeconds.observe({ provider }, seconds);
      if (outcome !== 'ok') errors.inc({ kind: 'tool' });
    },
    runLeasesExpired(count) {
      if (count > 0) leaseExpiries.inc(count);
    },
    watch(watched) {
      if (!sources && watched.pool()) poolGauges(() => sources?.pool());
      sources = watched;
    },
    async scrape() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
