import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';

const kind = testDatabaseKind();

/** Resolves with the next payload `db` hears on the run-stop channel, or rejects after `ms`. */
function nextSignal(db: Db, ms = 2_000): Promise<{ payload: string; afterMs: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no signal within ${ms} ms`));
    }, ms);
    const stop = db.signals.subscribe('cadre_run_stop', (payload) => {
      clearTimeout(timer);
      stop();
      resolve({ payload, afterMs: Date.now() - started });
    });
  });
}

describe(`signals between instances on ${kind}`, () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp({}, {}, { sameDatabaseAs: a });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });
  // SQLite is one instance: its signals stay in the process. PostgreSQL carries them to others.
  const receiver = () => (kind === 'postgres' ? b.db : a.db);

  it('delivers a signal published on one instance to the listeners on another within 500 ms', async () => {
    const heard = nextSignal(receiver());
    // The LISTEN connection opens on the first subscription.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const sent = Date.now();
    await a.db.signals.publish('cadre_run_stop', 'run-1');
    const { payload } = await heard;
    expect(payload).toBe('run-1');
    expect(Date.now() - sent).toBeLessThan(500);
  });

  it('keeps delivering after the database drops the listening connection', async () => {
    if (a.config.database.kind !== 'postgres') {
      // SQLite has no connection to lose; the in-process channel keeps working.
      const heard = nextSignal(receiver());
      await a.db.signals.publish('cadre_run_stop', 'still here');
      expect((await heard).payload).toBe('still here');
      return;
    }
    const admin = new pg.Client({ connectionString: a.config.database.url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ n: number }>(
        `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
         where datname = current_database() and application_name = 'cadre-signals'`,
      );
      expect(rows[0]!.n).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    // Publish until the reconnected listener hears it (it re-LISTENs within about a second).
    const heard = nextSignal(receiver(), 5_000);
    let delivered = false;
    void heard.then(() => (delivered = true)).catch(() => {});
    for (let i = 0; i < 40 && !delivered; i += 1) {
      await a.db.signals.publish('cadre_run_stop', 'after reconnect');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await heard).payload).toBe('after reconnect');
  });
});
