import { describe, expect, it } from 'vitest';
import { redactUrl } from './logging.ts';

describe('redactUrl (ASVS 25)', () => {
  it('replaces the values of secret parameters and keeps everything else as it was', () => {
    expect(redactUrl('/cb/?code=abc&state=xyz&iss=https%3A%2F%2Fgh')).toBe(
      '/cb/?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fgh',
    );
    expect(redactUrl('/idp/session/end?id_token_hint=eyJ.x.y&post_logout_redirect_uri=%2F')).toBe(
      '/idp/session/end?id_token_hint=[redacted]&post_logout_redirect_uri=%2F',
    );
    expect(
      redactUrl('/x?TOKEN=1&Api_Key=2&key=3&password=4&access_token=5&refresh_token=6&client_secret=7'),
    ).toBe(
      '/x?TOKEN=[redacted]&Api_Key=[redacted]&key=[redacted]&password=[redacted]&access_token=[redacted]&refresh_token=[redacted]&client_secret=[redacted]',
    );
    // Encoded names are recognised; a name without a value is marked too.
    expect(redactUrl('/x?%63ode=1&state&keep=me')).toBe('/x?%63ode=[redacted]&state=[redacted]&keep=me');
    expect(redactUrl('/plain/path')).toBe('/plain/path');
    expect(redactUrl('/x?bad=%E0%A4%A&monkey=1')).toBe('/x?bad=%E0%A4%A&monkey=1');
  });
});
