import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerErrorHandling } from './errors.ts';
import { refuseNulCharacters } from './nul-guard.ts';

describe('R11: NUL characters', () => {
  it('R11: are refused with 422 naming the field, in the path, the query and the body', async () => {
    const app = Fastify();
    registerErrorHandling(app);
    refuseNulCharacters(app);
    app.post('/things/:id', async () => ({ ok: true }));
    const cases = [
      ['/things/a%00b', { a: 1 }, ['params', 'id']],
      ['/things/1?q=x%00', { a: 1 }, ['querystring', 'q']],
      ['/things/1', { list: [{ name: 'ok' }, { name: 'bad\u0000' }] }, ['body', 'list', 1, 'name']],
      ['/things/1', { ['k\u0000']: 1 }, ['body', 'k\u0000']],
    ] as const;
    for (const [url, payload, loc] of cases) {
      const res = await app.inject({ method: 'POST', url, payload });
      expect(res.statusCode, url).toBe(422);
      expect(res.json()).toEqual({
        detail: [{ loc, msg: 'must not contain a NUL character', type: 'value_error' }],
        code: 'validation_failed',
      });
    }
    expect(
      (await app.inject({ method: 'POST', url: '/things/1', payload: { name: 'fine' } })).statusCode,
    ).toBe(200);
  });
});
