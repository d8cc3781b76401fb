import net from 'node:net';

/**
 * Address classification for the egress guard. Pure functions over parsed addresses, so the
 * address table (test C1) is checked without any network. An address is "public" only when it is
 * in none of the special-purpose ranges below; IPv6 forms that embed an IPv4 address
 * (IPv4-mapped, NAT64, 6to4, IPv4-compatible) are judged by the IPv4 address inside them.
 */

export type ParsedIp = { version: 4; value: number } | { version: 6; groups: number[] };

export function parseIp(text: string): ParsedIp | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const kind = net.isIP(bare);
  if (kind === 4) return { version: 4, value: parseV4(bare) };
  if (kind === 6) return { version: 6, groups: parseV6(bare.replace(/%.*$/, '')) };
  return undefined;
}

function parseV4(text: string): number {
  return text.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function parseV6(text: string): number[] {
  let body = text.toLowerCase();
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(body);
  if (dotted) {
    const v4 = parseV4(dotted[1]!);
    tail.push(Math.floor(v4 / 65536), v4 % 65536);
    body = body.slice(0, -dotted[1]!.length);
    if (body.endsWith(':') && !body.endsWith('::')) body = body.slice(0, -1);
  }
  const [head, rest] = body.includes('::') ? body.split('::') : [body, undefined];
  const toGroups = (s: string | undefined) =>
    s
      ? s
          .split(':')
          .filter(Boolean)
          .map((g) => parseInt(g, 16))
      : [];
  const left = toGroups(head);
  const right = [...toGroups(rest), ...tail];
  if (rest === undefined) return [...left, ...tail];
  const fill = 8 - left.length - right.length;
  return [...left, ...Array.from({ length: fill }, () => 0), ...right];
}

const v4 = (a: number, b: number, c: number, d: number) => ((a * 256 + b) * 256 + c) * 256 + d;

/** [network, prefix length, reason] */
const BLOCKED_V4: [number, number, string][] = [
  [v4(0, 0, 0, 0), 8, 'this network'],
  [v4(10, 0, 0, 0), 8, 'private'],
  [v4(100, 64, 0, 0), 10, 'carrier-grade NAT'],
  [v4(127, 0, 0, 0), 8, 'loopback'],
  [v4(169, 254, 0, 0), 16, 'link-local'],
  [v4(172, 16, 0, 0), 12, 'private'],
  [v4(192, 0, 0, 0), 24, 'IETF protocol assignments'],
  [v4(192, 0, 2, 0), 24, 'documentation'],
  [v4(192, 88, 99, 0), 24, '6to4 relay'],
  [v4(192, 168, 0, 0), 16, 'private'],
  [v4(198, 18, 0, 0), 15, 'benchmarking'],
  [v4(198, 51, 100, 0), 24, 'documentation'],
  [v4(203, 0, 113, 0), 24, 'documentation'],
  [v4(224, 0, 0, 0), 4, 'multicast'],
  [v4(240, 0, 0, 0), 4, 'reserved'],
];

function inV4(value: number, network: number, prefix: number): boolean {
  const size = 2 ** (32 - prefix);
  return Math.floor(value / size) === Math.floor(network / size);
}

function v6Bits(groups: number[]): bigint {
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
}

function inV6(groups: number[], network: number[], prefix: number): boolean {
  const shift = BigInt(128 - prefix);
  return v6Bits(groups) >> shift === v6Bits(network) >> shift;
}

const BLOCKED_V6: [number[], number, string][] = [
  [[0, 0, 0, 0, 0, 0, 0, 0], 128, 'unspecified'],
  [[0, 0, 0, 0, 0, 0, 0, 1], 128, 'loopback'],
  [[0x64, 0xff9b, 1, 0, 0, 0, 0, 0], 48, 'NAT64 (local use)'],
  [[0x100, 0, 0, 0, 0, 0, 0, 0], 64, 'discard-only'],
  [[0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], 32, 'documentation'],
  [[0xfc00, 0, 0, 0, 0, 0, 0, 0], 7, 'unique-local'],
  [[0xfe80, 0, 0, 0, 0, 0, 0, 0], 10, 'link-local'],
  [[0xfec0, 0, 0, 0, 0, 0, 0, 0], 10, 'site-local'],
  [[0xff00, 0, 0, 0, 0, 0, 0, 0], 8, 'multicast'],
];

/** The IPv4 address an IPv6 address carries, for the forms that route to it. */
function embeddedV4(groups: number[]): number | undefined {
  const low = groups[6]! * 65536 + groups[7]!;
  // ::ffff:a.b.c.d (IPv4-mapped), ::a.b.c.d (IPv4-compatible), 64:ff9b::a.b.c.d (NAT64).
  if (inV6(groups, [0, 0, 0, 0, 0, 0xffff, 0, 0], 96)) return low;
  if (inV6(groups, [0, 0, 0, 0, 0, 0, 0, 0], 96)) return low;
  if (inV6(groups, [0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96)) return low;
  // 2002:AABB:CCDD::/16 (6to4).
  if (groups[0] === 0x2002) return groups[1]! * 65536 + groups[2]!;
  return undefined;
}

/** Why an address must not be reached, or undefined when it is a public unicast address. */
export function blockedReason(ip: ParsedIp): string | undefined {
  if (ip.version === 4) {
    if (ip.value === v4(255, 255, 255, 255)) return 'broadcast';
    return BLOCKED_V4.find(([network, prefix]) => inV4(ip.value, network, prefix))?.[2];
  }
  for (const [network, prefix, reason] of BLOCKED_V6) {
    if (inV6(ip.groups, network, prefix)) return reason;
  }
  const inner = embeddedV4(ip.groups);
  if (inner !== undefined) {
    const reason = blockedReason({ version: 4, value: inner });
    return reason ? `${reason} (embedded IPv4)` : undefined;
  }
  return undefined;
}

export interface Cidr {
  ip: ParsedIp;
  prefix: number;
}

export function parseCidr(text: string): Cidr | undefined {
  const [address, prefixText] = text.split('/');
  const ip = parseIp(address!.trim());
  if (!ip) return undefined;
  const max = ip.version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) return undefined;
  return { ip, prefix };
}

export function cidrContains(cidr: Cidr, ip: ParsedIp): boolean {
  if (cidr.ip.version === 4 && ip.version === 4) {
    return cidr.prefix === 0 || inV4(ip.value, cidr.ip.value, cidr.prefix);
  }
  if (cidr.ip.version === 6 && ip.version === 6) {
    return cidr.prefix === 0 || inV6(ip.groups, cidr.ip.groups, cidr.prefix);
  }
  // An IPv4 rule also covers the IPv4-mapped form of its addresses.
  if (cidr.ip.version === 4 && ip.version === 6 && inV6(ip.groups, [0, 0, 0, 0, 0, 0xffff, 0, 0], 96)) {
    return cidrContains(cidr, { version: 4, value: ip.groups[6]! * 65536 + ip.groups[7]! });
  }
  return false;
}
