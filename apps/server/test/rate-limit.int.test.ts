import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hitRateLimit, resetRateLimit } from '../src/security/rate-limit.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';

describe(`rate limit on ${testDatabaseKind()}`, () => {
  // One app for all: each test counts its own keys.
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('allows up to the limit in a window, then refuses with the seconds left', async () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 10);
    const opts = { limit: 3, windowSeconds: 60, now };
    for (let i = 1; i <= 3; i++) {
      expect(await hitRateLimit(t.db, 'ip:1', opts)).toMatchObject({ allowed: true, count: i });
    }
    expect(await hitRateLimit(t.db, 'ip:1', opts)).toEqual({
      allowed: false,
      count: 4,
      retryAfterSeconds: 50,
    });
    // Other keys are counted apart.
    expect((await hitRateLimit(t.db, 'ip:2', opts)).allowed).toBe(true);
    // A new window starts over.
    expect(await hitRateLimit(t.db, 'ip:1', { ...opts, now: now + 60_000 })).toMatchObject({
      allowed: true,
      count: 1,
    });
  });

  it('counts concurrent hits exactly', async () => {
    const opts = { limit: 100, windowSeconds: 60, now: Date.UTC(2026, 0, 1) };
    const results = await Promise.all(Array.from({ length: 20 }, () => hitRateLimit(t.db, 'burst', opts)));
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });

  it('forgets a key on reset', async () => {
    // A fixed clock: with the real one, a window boundary between two hits would reset the count.
    const opts = { limit: 1, windowSeconds: 60, now: Date.UTC(2026, 0, 1, 12, 0, 10) };
    await hitRateLimit(t.db, 'k', opts);
    expect((await hitRateLimit(t.db, 'k', opts)).allowed).toBe(false);
    await resetRateLimit(t.db, 'k');
    expect((await hitRateLimit(t.db, 'k', opts)).allowed).toBe(true);
  });
});
