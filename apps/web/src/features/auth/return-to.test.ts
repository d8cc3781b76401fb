import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-to';

describe('safeReturnPath (I2)', () => {
  it.each([
    '//evil.com',
    '/\\evil.com',
    'https://evil.com',
    'javascript:alert(1)',
    '%2F%2Fevil.com',
    '/%2F%2Fevil.com',
    '/%5Cevil.com',
    '/unknown-section',
    '',
    undefined,
    42,
  ])('sends %s to /', (value) => {
    expect(safeReturnPath(value)).toBe('/');
  });

  it.each([
    ['/info', '/info'],
    ['/agents', '/agents'],
    ['/agents/12/edit', '/agents/12/edit'],
    ['/services/?q=mail#top', '/services/?q=mail#top'],
    ['/copilot', '/copilot'],
    ['/usage', '/usage'],
    ['/api-keys', '/api-keys'],
  ])('keeps the app path %s', (value, expected) => {
    expect(safeReturnPath(value)).toBe(expected);
  });
});
