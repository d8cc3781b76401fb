import { Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { loggerOptions, logsAsText, OneLineRequestLog, redactUrl } from './logging.ts';

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

/** A destination that keeps what is written; `isTTY` as a terminal's stdout has it. */
function output(isTTY: boolean) {
  const chunks: string[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, callback) {
        chunks.push(stripVTControlCharacters(String(chunk)));
        callback();
      },
    }),
    { isTTY },
  );
  return { stream, lines: () => chunks.join('').split('\n').filter(Boolean) };
}

describe('LOG_FORMAT', () => {
  let app: ReturnType<typeof Fastify> | undefined;
  afterEach(async () => app?.close());

  /** The lines one request writes, with LOG_FORMAT as given, to a terminal or not. */
  async function linesFor(logFormat: string | undefined, isTTY: boolean) {
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      ...(logFormat ? { LOG_FORMAT: logFormat } : {}),
    });
    const out = output(isTTY);
    app = Fastify({ logger: loggerOptions(config, out.stream), logController: new OneLineRequestLog() });
    app.get('/backend/api/v1/agents/', async () => []);
    await app.inject({ url: '/backend/api/v1/agents/?token=secret' });
    await app.close();
    app = undefined;
    return out.lines();
  }

  const TEXT_LINE = /^\[\d\d:\d\d:\d\d\] INFO: GET \/backend\/api\/v1\/agents\/ 200 \d+ ms$/;

  it('writes one JSON line per request when not at a terminal, or with LOG_FORMAT=json at one', async () => {
    for (const [format, tty] of [
      [undefined, false],
      ['auto', false],
      ['json', true],
      ['json', false],
    ] as const) {
      const lines = await linesFor(format, tty);
      expect(lines, `${format} ${tty}`).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, method: 'GET', statusCode: 200 });
    }
  });

  it('writes one line of text per request at a terminal, or with LOG_FORMAT=text anywhere', async () => {
    for (const [format, tty] of [
      [undefined, true],
      ['text', false],
    ] as const) {
      const lines = await linesFor(format, tty);
      expect(lines, `${format} ${tty}`).toHaveLength(1);
      expect(lines[0]).toMatch(TEXT_LINE);
      expect(lines[0]).not.toContain('secret');
    }
  });

  it('decides from the setting first and the terminal second', () => {
    expect(logsAsText({ logFormat: 'auto' }, true)).toBe(true);
    expect(logsAsText({ logFormat: 'auto' }, false)).toBe(false);
    expect(logsAsText({ logFormat: 'json' }, true)).toBe(false);
    expect(logsAsText({ logFormat: 'text' }, false)).toBe(true);
    expect(() => loadConfig({ NODE_ENV: 'test', LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });
});
