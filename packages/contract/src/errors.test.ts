import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { backchannelLogoutErrorSchema } from './auth.ts';
import { chatErrorCategorySchema, MODEL_FAILURE_CODES } from './chat.ts';
import {
  ERROR_CODES,
  errorCodeOf,
  errorCodeSchema,
  errorSchema,
  mostTellingOutage,
  outageOf,
  outageRetryDelayMs,
  statusOf,
  validationErrorSchema,
  type ErrorCode,
} from './errors.ts';
import { openAiErrorSchema } from './openai.ts';

const codes = Object.keys(ERROR_CODES) as ErrorCode[];

describe('the error vocabulary', () => {
  it('gives every code one error status, and its schema takes exactly the codes of the table', () => {
    for (const code of codes) {
      expect(code, code).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(Number.isInteger(statusOf(code)), code).toBe(true);
      expect(statusOf(code), code).toBeGreaterThanOrEqual(400);
      expect(statusOf(code), code).toBeLessThan(600);
    }
    expect(errorCodeSchema.options).toEqual(codes);
    expect(errorCodeSchema.safeParse('teapot').success).toBe(false);
    expect(errorSchema.safeParse({ detail: 'x' }).success).toBe(false);
  });

  it('declares each fixed code where its status is', () => {
    expect(statusOf(validationErrorSchema.shape.code.value)).toBe(422);
    expect(statusOf(backchannelLogoutErrorSchema.shape.code.value)).toBe(400);
    // A run's error category is a model failure code (or `limit`, which is no error answer).
    expect(chatErrorCategorySchema.options).toEqual([...MODEL_FAILURE_CODES, 'limit']);
    for (const code of MODEL_FAILURE_CODES) expect(errorCodeSchema.parse(code)).toBe(code);
    expect(openAiErrorSchema.shape.error.shape.code.safeParse(null).success).toBe(false);
  });

  it('reads the code of either body shape, and nothing else', () => {
    expect(errorCodeOf({ detail: 'Agent not found', code: 'not_found' })).toBe('not_found');
    expect(errorCodeOf({ error: { message: 'm', type: 't', param: null, code: 'rate_limited' } })).toBe(
      'rate_limited',
    );
    expect(errorCodeOf({ detail: 'x', code: 'model_not_found' })).toBeUndefined();
    expect(errorCodeOf({ detail: 'x', code: 'toString' })).toBeUndefined();
    expect(errorCodeOf('not_found')).toBeUndefined();
    expect(errorCodeOf(null)).toBeUndefined();
  });

  it('is listed in docs/api.md, each code once with its status, and nothing more', () => {
    const doc = fs.readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map(([, code, status]) => [
      code,
      Number(status),
    ]);
    expect(rows).toEqual(codes.map((code) => [code, statusOf(code)]));
  });
});

describe('outages a client waits out', () => {
  it('tells a database outage and an unreachable service from other 503s', () => {
    expect(outageOf(503, { detail: 'x', code: 'db_unavailable' })).toBe('database');
    expect(outageOf(503, { detail: 'x', code: 'unavailable' })).toBe('service');
    // A proxy's own page, no code of ours.
    expect(outageOf(503, '<html>503 Service Unavailable</html>')).toBe('service');
    expect(outageOf(503, { detail: 'x', code: 'no_model' })).toBeUndefined();
    expect(outageOf(500, { detail: 'x', code: 'internal_error' })).toBeUndefined();
  });

  it('waits at least Retry-After, doubling with each failure up to 30 s', () => {
    expect([1, 2, 3, 4].map((n) => outageRetryDelayMs(n, null))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(outageRetryDelayMs(1, '5')).toBe(5_000);
    expect(outageRetryDelayMs(4, '5')).toBe(8_000);
    expect(outageRetryDelayMs(9, '5')).toBe(30_000);
    expect(outageRetryDelayMs(1, 'Wed, 21 Oct 2015 07:28:00 GMT')).toBe(1_000);
  });

  it('tells of the database first when requests wait out different outages', () => {
    expect(mostTellingOutage([undefined, 'service', 'database', 'service'])).toBe('database');
    expect(mostTellingOutage([undefined, 'service'])).toBe('service');
    expect(mostTellingOutage([])).toBeUndefined();
  });
});
