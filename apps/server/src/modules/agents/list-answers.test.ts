import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { listAnswerCache } from './list-answers.ts';

const built = (body: string) => {
  let builds = 0;
  return {
    build: async () => {
      builds += 1;
      return { body, nextAfter: null };
    },
    count: () => builds,
  };
};

describe('the agent list answers kept per list version', () => {
  it('builds once per version, shares a build between concurrent requests, and keeps a later one for an earlier version', async () => {
    const cache = listAnswerCache({ maxEntries: 10, maxBytes: 1_000_000 });
    const v1 = built('[1]');
    const [a, b] = await Promise.all([cache.get('u1', 1, v1.build), cache.get('u1', 1, v1.build)]);
    expect(a).toBe(b);
    expect(v1.count()).toBe(1);
    const v2 = built('[2]');
    expect((await cache.get('u1', 2, v2.build)).body.toString()).toBe('[2]');
    // A request that read version 1 before the write gets the newer answer, not a rebuild.
    expect((await cache.get('u1', 1, v1.build)).body.toString()).toBe('[2]');
    expect([v1.count(), v2.count()]).toEqual([1, 1]);
  });

  it('compresses an answer once per encoding', async () => {
    const cache = listAnswerCache({ maxEntries: 10, maxBytes: 1_000_000 });
    const body = JSON.stringify(Array.from({ length: 50 }, (_, id) => ({ id, name: `Agent ${id}` })));
    const answer = await cache.get('u1', 1, built(body).build);
    const [br, again] = await Promise.all([answer.encoded('br'), answer.encoded('br')]);
    expect(br).toBe(again);
    expect(zlib.brotliDecompressSync(br).toString()).toBe(body);
    expect(zlib.gunzipSync(await answer.encoded('gzip')).toString()).toBe(body);
    expect(cache.size().bytes).toBe(body.length + br.length + (await answer.encoded('gzip')).length);
  });

  it('drops the least recently used answers past its count or bytes, and never keeps a failed build', async () => {
    const cache = listAnswerCache({ maxEntries: 2, maxBytes: 10 });
    await cache.get('a', 1, built('aaaa').build);
    await cache.get('b', 1, built('bbbb').build);
    await cache.get('a', 1, built('never').build);
    await cache.get('c', 1, built('cc').build);
    // `b` was used least recently: gone; `a` and `c` stay (2 entries, 6 bytes).
    expect(cache.size()).toEqual({ entries: 2, bytes: 6 });
    const b = built('bbbb');
    await cache.get('b', 1, b.build);
    expect(b.count()).toBe(1);
    await cache.get('big', 1, built('x'.repeat(11)).build);
    expect(cache.size().bytes).toBeLessThanOrEqual(10);

    await expect(cache.get('d', 1, () => Promise.reject(new Error('database down')))).rejects.toThrow();
    const d = built('dd');
    expect((await cache.get('d', 1, d.build)).body.toString()).toBe('dd');
    expect(d.count()).toBe(1);
  });
});
