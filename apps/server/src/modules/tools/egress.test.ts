import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockedReason, cidrContains, parseCidr, parseIp } from './ip-ranges.ts';
import { checkUrl, createGuardedFetch, EgressError, safeFetch } from './egress.ts';

let server: http.Server;
let base: string;
const seen: { url: string; host: string | undefined }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', host: req.headers.host });
    if (req.url === '/redirect-loopback') {
      res.writeHead(302, { location: `http://127.0.0.1:${(server.address() as AddressInfo).port}/ok` });
      return res.end();
    }
    if (req.url === '/redirect-metadata') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      return res.end();
    }
    if (req.url === '/loop') {
      res.writeHead(302, { location: '/loop' });
      return res.end();
    }
    if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end('x'.repeat(5000));
    }
    if (req.url === '/sized') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '9000' });
      return res.end(JSON.stringify('s'.repeat(8998)));
    }
    if (req.url === '/stream') {
      // Chunked: no Content-Length announces the size.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < 20; i++) res.write('z'.repeat(1000));
      return res.end();
    }
    if (req.url === '/hang') return; // never answers
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: true, path: req.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function refused(url: string, policy = {}) {
  const before = seen.length;
  const err = await safeFetch(url, {}, policy).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, url).toBeInstanceOf(EgressError);
  expect(seen.length, `no request reached the server for ${url}`).toBe(before);
  return err as EgressError;
}

describe('C1 the address table: refused before any socket opens', () => {
  const table = [
    'http://127.0.0.1/',
    'http://localhost/',
    'http://app.localhost/',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://[::]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://metadata/',
    'http://10.0.0.1/',
    'http://10.255.255.255/',
    'http://172.16.0.1/',
    'http://172.31.255.254/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://100.127.255.254/',
    'http://[fd00::1]/',
    'http://[fc00::1]/',
    'http://[fe80::1]/',
    'http://[ff02::1]/',
    'http://224.0.0.1/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://[64:ff9b::127.0.0.1]/',
    'http://[2002:7f00:1::]/',
    'http://[::7f00:1]/',
    'http://[::ffff:0:8.8.8.8]/',
    'http://[2001::1]/',
    'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
    'http://[2001:10::1]/',
    'http://[2001:20::1]/',
    'http://[2001:2::1]/',
    'http://[2001:3::1]/',
    'http://[2001:4:112::1]/',
    'http://[3fff::1]/',
    'http://[5f00::1]/',
    'http://[64:ff9b:1::808:808]/',
    'http://192.31.196.1/',
    'http://192.175.48.1/',
    'http://192.52.193.1/',
    'http://198.18.0.1/',
    'http://240.0.0.1/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f.1/',
    'http://127.1/',
    'http://evil@127.0.0.1/',
    'http://user:pass@example.com/',
    'file:///etc/passwd',
    'gopher://example.com/',
    'data:text/plain,hello',
    'ftp://example.com/',
    'javascript:alert(1)',
    'http://example.com:22/',
    'https://example.com:6379/',
    'not a url',
  ];
  it.each(table)('%s', async (url) => {
    await refused(url);
  });

  it('normalises integer and octal forms to the address they mean', () => {
    expect(checkUrl.bind(null, 'http://1.1.1.1/')).not.toThrow();
    expect(new URL('http://2130706433/').hostname).toBe('127.0.0.1');
    expect(new URL('http://0177.0.0.1/').hostname).toBe('127.0.0.1');
  });

  it('classifies public and special addresses', () => {
    const reason = (ip: string) => blockedReason(parseIp(ip)!);
    expect(reason('8.8.8.8')).toBeUndefined();
    expect(reason('172.32.0.1')).toBeUndefined();
    expect(reason('100.128.0.1')).toBeUndefined();
    expect(reason('2606:4700::1111')).toBeUndefined();
    expect(reason('::ffff:8.8.8.8')).toBeUndefined();
    expect(reason('64:ff9b::808:808')).toBeUndefined();
    expect(reason('::ffff:10.1.2.3')).toMatch(/private/);
    expect(reason('64:ff9b::a9fe:a9fe')).toMatch(/link-local/);
    expect(reason('fd12:3456::1')).toBe('unique-local');
    expect(reason('255.255.255.255')).toBe('broadcast');
  });

  it('allows only what ipaddr.js calls unicast, judging embedded IPv4 by the address inside', () => {
    const reason = (ip: string) => blockedReason(parseIp(ip)!);
    // Public addresses next to special ranges stay public.
    expect(reason('2001:4860:4860::8888')).toBeUndefined();
    expect(reason('192.31.197.1')).toBeUndefined();
    expect(reason('2002:808:808::1')).toBeUndefined();
    expect(reason('::808:808')).toBeUndefined();
    // RFC 6145 (::ffff:0:0:0/96) is not delivered to the IPv4 inside, so it is refused even for a public one.
    expect(reason('::ffff:0:8.8.8.8')).toBe('IPv4-translated');
    expect(reason('2001::1')).toBe('Teredo');
    expect(reason('2001:10::1')).toBe('ORCHID');
    expect(reason('2001:20::1')).toBe('ORCHID');
    expect(reason('2001:2::1')).toBe('benchmarking');
    expect(reason('192.31.196.1')).toBe('AS112');
    expect(reason('192.175.48.1')).toBe('AS112');
    expect(reason('192.52.193.1')).toBe('AMT relay');
    expect(reason('3fff::1')).toBe('reserved');
    expect(reason('5f00::1')).toBe('segment routing');
    expect(reason('64:ff9b:1::1')).toBe('NAT64');
    // IPv4-compatible, written in hex, and 6to4: the IPv4 inside decides.
    expect(reason('::7f00:1')).toBe('loopback (embedded IPv4)');
    expect(reason('::a00:1')).toBe('private (embedded IPv4)');
    expect(reason('2002:a9fe:a9fe::')).toBe('link-local (embedded IPv4)');
    // `::` and `::1` are judged as themselves, not as 0.0.0.0 and 0.0.0.1.
    expect(reason('::')).toBe('unspecified');
    expect(reason('::1')).toBe('loopback');
  });

  it('C1: refuses IPv4-translated (::ffff:0:0:0/96) and Teredo (2001::/32) addresses, typed or resolved (W10)', async () => {
    for (const address of [
      '::ffff:0:a9fe:a9fe',
      '::ffff:0:7f00:1',
      '::ffff:0:8.8.8.8',
      '2001::1',
      '2001:0:4136:e378::1',
    ]) {
      await refused(`http://[${address}]/`);
      await refused('http://mapped.example/', { resolve: async () => [address] });
    }
    expect((await refused('http://[::ffff:0:a9fe:a9fe]/')).message).toMatch(/IPv4-translated/);
    expect((await refused('http://[2001::1]/')).message).toMatch(/Teredo/);
  });

  it('reads EGRESS_ALLOW_PRIVATE networks strictly', () => {
    expect(parseCidr('10.0.0.0/8')).toBeDefined();
    expect(parseCidr('fd00::/8')).toBeDefined();
    expect(parseCidr('127.0.0.1')).toBeDefined();
    for (const text of ['10.0.0.0/', '10.0.0.0/33', '10.0.0.0/8/8', '10.0.0.0/x', 'localhost', '127.1/8']) {
      expect(parseCidr(text), text).toBeUndefined();
    }
    const loopback = parseCidr('127.0.0.0/8')!;
    expect(cidrContains(loopback, parseIp('127.0.0.2')!)).toBe(true);
    expect(cidrContains(loopback, parseIp('::ffff:127.0.0.2')!)).toBe(true);
    expect(cidrContains(loopback, parseIp('10.0.0.1')!)).toBe(false);
    expect(cidrContains(loopback, parseIp('::1')!)).toBe(false);
  });

  it('refuses a host name that resolves to a private address', async () => {
    const err = await refused('http://innocent.example/', { resolve: async () => ['10.1.2.3'] });
    expect(err.message).toContain('private');
  });

  it('refuses when any of the resolved addresses is private', async () => {
    await refused('http://mixed.example/', { resolve: async () => ['93.184.216.34', '127.0.0.1'] });
  });

  it('reaches a private host only when EGRESS_ALLOW_PRIVATE lists it', async () => {
    await refused(`${base}/x`);
    const byCidr = await safeFetch(`${base}/x`, {}, { allowPrivate: ['127.0.0.0/8'] });
    expect(byCidr.json()).toEqual({ ok: true, path: '/x' });
    const byHost = await safeFetch(`${base}/y`, {}, { allowPrivate: ['127.0.0.1'] });
    expect(byHost.status).toBe(200);
    // An allowance for one range does not open another.
    await refused('http://10.0.0.1/', { allowPrivate: ['127.0.0.0/8'] });
  });
});

describe('C2 redirects and rebinding', () => {
  const allowLocal = { allowPrivate: ['127.0.0.1'] };

  it('refuses a redirect to loopback from a public-looking host', async () => {
    // The first hop is "public" through the stub resolver; the redirect points at 127.0.0.1.
    const port = (server.address() as AddressInfo).port;
    const before = seen.length;
    const err = await safeFetch(
      `http://public.example:${port}/redirect-loopback`,
      {},
      { resolve: async () => ['127.0.0.1'], allowPrivate: ['public.example'], allowedPorts: [port] },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EgressError);
    expect((err as EgressError).message).toContain('127.0.0.1');
    // Only the first hop reached the server; the redirect target was never requested.
    expect(seen.slice(before).map((s) => s.url)).toEqual(['/redirect-loopback']);
  });

  it('refuses a redirect to the metadata address even when loopback is allowed', async () => {
    const err = await safeFetch(`${base}/redirect-metadata`, {}, allowLocal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EgressError);
    expect((err as EgressError).code).toBe('blocked');
  });

  it('stops after 5 redirects', async () => {
    const before = seen.length;
    const err = await safeFetch(`${base}/loop`, {}, allowLocal).catch((e: unknown) => e);
    expect((err as EgressError).code).toBe('too_many_redirects');
    expect(seen.length - before).toBe(6);
  });

  it('connects to the address it validated, not a second answer (DNS rebinding)', async () => {
    const port = (server.address() as AddressInfo).port;
    const answers = [['127.0.0.1'], ['10.9.9.9']];
    let lookups = 0;
    const res = await safeFetch(
      `http://rebind.example:${port}/pinned`,
      {},
      {
        allowPrivate: ['127.0.0.1/32'],
        allowedPorts: [port],
        resolve: async () => answers[lookups++] ?? ['10.9.9.9'],
      },
    );
    expect(res.json()).toEqual({ ok: true, path: '/pinned' });
    expect(lookups).toBe(1);
    // The original host name is kept in the Host header.
    expect(seen.at(-1)?.host).toBe(`rebind.example:${port}`);
  });

  it('refuses when the first answer is private, before connecting', async () => {
    const port = (server.address() as AddressInfo).port;
    await refused(`http://rebind2.example:${port}/`, {
      allowedPorts: [port],
      resolve: async () => ['127.0.0.1'],
    });
  });
});

describe('C4 host allowlist per policy', () => {
  it('refuses a host the tool was not built for', async () => {
    const err = await refused('https://evil.example/steal', { allowHosts: ['api.github.com'] });
    expect(err.message).toContain('evil.example');
  });

  it('matches exact hosts and *.suffix patterns only', () => {
    const policy = { allowHosts: ['api.github.com', '*.wikipedia.org'] };
    expect(() => checkUrl('https://api.github.com/user', policy)).not.toThrow();
    expect(() => checkUrl('https://en.wikipedia.org/wiki/X', policy)).not.toThrow();
    expect(() => checkUrl('https://wikipedia.org.evil.example/', policy)).toThrow(EgressError);
    expect(() => checkUrl('https://evilwikipedia.org/', policy)).toThrow(EgressError);
    expect(() => checkUrl('https://github.com/', policy)).toThrow(EgressError);
  });

  it('refuses a redirect to a host outside the allowlist', async () => {
    const err = await safeFetch(
      `${base}/redirect-metadata`,
      {},
      { allowHosts: ['127.0.0.1'], allowPrivate: ['127.0.0.1', '169.254.169.254'] },
    ).catch((e: unknown) => e);
    expect((err as EgressError).message).toContain('may not reach 169.254.169.254');
  });
});

describe('limits', () => {
  const allowLocal = { allowPrivate: ['127.0.0.1'] };
  it('caps the response size', async () => {
    const err = await safeFetch(`${base}/big`, {}, { ...allowLocal, maxBytes: 1000 }).catch(
      (e: unknown) => e,
    );
    expect((err as EgressError).code).toBe('too_large');
    const ok = await safeFetch(`${base}/big`, {}, { ...allowLocal, maxBytes: 10_000 });
    expect(ok.text()).toHaveLength(5000);
  });

  it('R11: cuts a streamed answer off past maxBytes for SDKs (MCP), and says so', async () => {
    const heard: EgressError[] = [];
    const guarded = createGuardedFetch(
      { ...allowLocal, maxBytes: 5000 },
      { onTooLarge: (err) => heard.push(err) },
    );
    try {
      const streamed = await guarded(`${base}/stream`);
      const err = await streamed.text().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EgressError);
      expect((err as EgressError).code).toBe('too_large');
      // A declared Content-Length over the cap is refused before any of the body is read.
      await expect(guarded(`${base}/sized`, {})).rejects.toMatchObject({ code: 'too_large' });
      expect(heard.map((e) => e.message)).toEqual([
        'The answer from 127.0.0.1 is larger than 5000 bytes',
        'The answer from 127.0.0.1 is larger than 5000 bytes',
      ]);
      expect(await (await guarded(`${base}/ok`)).json()).toEqual({ ok: true, path: '/ok' });
    } finally {
      await guarded.close();
    }
  });

  it('times out a server that never answers', async () => {
    const err = await safeFetch(`${base}/hang`, {}, { ...allowLocal, timeoutMs: 300 }).catch(
      (e: unknown) => e,
    );
    expect((err as EgressError).code).toBe('timeout');
  });

  it('never puts the query string (which may hold a key) in an error', async () => {
    const err = (await safeFetch('http://10.0.0.1/x?key=sk-canary-123', {}).catch(
      (e: unknown) => e,
    )) as Error;
    expect(err.message).not.toContain('sk-canary');
  });
});
