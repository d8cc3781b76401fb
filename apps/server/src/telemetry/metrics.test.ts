import { describe, expect, it } from 'vitest';
import { createMetrics } from './metrics.ts';

/** The value of one series in a Prometheus text exposition, or undefined when it is not there. */
const valueIn = (body: string, series: string) => {
  const escaped = series.replace(/[{}()[\].+*?^$|\\]/g, '\\$&');
  const found = new RegExp(`^${escaped} (\\S+)$`, 'm').exec(body)?.[1];
  return found === undefined ? undefined : Number(found);
};

describe('the capacity metrics of an instance', () => {
  it("reads the pool's use and the runs running here at each scrape, and counts released runs", async () => {
    const metrics = await createMetrics();
    let pool = { size: 10, inUse: 3, idle: 2, waiting: 1 };
    let running = 4;
    metrics.watch({ pool: () => pool, runningRuns: () => running });
    metrics.runLeasesExpired(2);
    metrics.runLeasesExpired(0);
    metrics.runLeasesExpired(1);
    const first = (await metrics.scrape()).body;
    expect(valueIn(first, 'cadre_db_pool_size')).toBe(10);
    expect(valueIn(first, 'cadre_db_pool_connections{state="in_use"}')).toBe(3);
    expect(valueIn(first, 'cadre_db_pool_connections{state="idle"}')).toBe(2);
    expect(valueIn(first, 'cadre_db_pool_waiting')).toBe(1);
    expect(valueIn(first, 'cadre_chat_runs_running')).toBe(4);
    expect(valueIn(first, 'cadre_run_lease_expiries_total')).toBe(3);
    // Gauges are now's values, not the last ones seen.
    pool = { size: 10, inUse: 0, idle: 5, waiting: 0 };
    running = 0;
    const second = (await metrics.scrape()).body;
    expect(valueIn(second, 'cadre_db_pool_connections{state="in_use"}')).toBe(0);
    expect(valueIn(second, 'cadre_chat_runs_running')).toBe(0);
  });

  it('has no pool series on SQLite, which has no pool', async () => {
    const metrics = await createMetrics();
    metrics.watch({ pool: () => undefined, runningRuns: () => 0 });
    const body = (await metrics.scrape()).body;
    expect(valueIn(body, 'cadre_db_pool_size')).toBeUndefined();
    expect(valueIn(body, 'cadre_db_pool_connections{state="in_use"}')).toBeUndefined();
    expect(valueIn(body, 'cadre_chat_runs_running')).toBe(0);
  });
});
