import ipaddr from 'ipaddr.js';

/**
 * Address classification for the egress guard, on ipaddr.js's tables of special-purpose ranges.
 * An allowlist: an address is public only when ipaddr.js calls its range `unicast`, so a range
 * the tables add later is refused without a change here. IPv6 forms that carry the IPv4 address a
 * packet is delivered to (IPv4-mapped, IPv4-compatible, NAT64 `64:ff9b::/96`, 6to4) are judged by
 * that IPv4 address. Pure functions, so the address table (test C1) runs without any network.
 */

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/** A network in EGRESS_ALLOW_PRIVATE: an address and a prefix length. */
export type Cidr = [IpAddress, number];

/** Parses a literal address, bracketed or not; only canonical forms (no `127.1`, no `0x7f.1`). */
export function parseIp(text: string): IpAddress | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const literal =
    ipaddr.IPv4.isValidFourPartDecimal(bare) || (bare.includes(':') && ipaddr.IPv6.isValid(bare));
  return literal ? ipaddr.parse(bare) : undefined;
}

/** How a refusal names each range of ipaddr.js; a range missing here is named as ipaddr.js names it. */
const RANGE_NAMES: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private',
  reserved: 'reserved',
  benchmarking: 'benchmarking',
  amt: 'AMT relay',
  as112: 'AS112',
  as112v6: 'AS112',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'site-local',
  discard: 'discard-only',
  rfc6145: 'IPv4-translated',
  rfc6052: 'NAT64',
  teredo: 'Teredo',
  deprecatedOrchid: 'ORCHID',
  orchid2: 'ORCHID',
  droneRemoteIdProtocolEntityTags: 'drone remote ID',
  segmentRouting: 'segment routing',
};

const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');

const ipv4Of = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/** The IPv4 address an IPv6 address routes to, for the forms that embed one. */
function embeddedIpv4(ip: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const [, second = 0, third = 0, , , , seventh = 0, eighth = 0] = ip.parts;
  // `::` and `::1` lie in ::/96 too, but are judged as what they are. (ipaddr.js reads the dotted
  // `::a.b.c.d` as IPv4-mapped; either way the IPv4 inside decides.)
  const compatible = ip.match(IPV4_COMPATIBLE) && ip.range() === 'unicast';
  if (ip.isIPv4MappedAddress() || ip.match(NAT64) || compatible) return ipv4Of(seventh, eighth);
  if (ip.match(SIX_TO_FOUR)) return ipv4Of(second, third);
  return undefined;
}

/** Why an address must not be reached, or undefined when it is a public unicast address. */
export function blockedReason(ip: IpAddress): string | undefined {
  const inner = ip instanceof ipaddr.IPv6 ? embeddedIpv4(ip) : undefined;
  if (inner) {
    const reason = blockedReason(inner);
    return reason && `${reason} (embedded IPv4)`;
  }
  const range = ip.range();
  return range === 'unicast' ? undefined : (RANGE_NAMES[range] ?? range);
}

/** `10.0.0.0/8`, `fd00::/8`, or one address (a full-length prefix); undefined when not a network. */
export function parseCidr(text: string): Cidr | undefined {
  const [address = '', prefixText, ...rest] = text.split('/');
  const ip = parseIp(address.trim());
  if (!ip || rest.length) return undefined;
  const max = ip.kind() === 'ipv4' ? 32 : 128;
  if (prefixText === undefined) return [ip, max];
  if (!/^\d{1,3}$/.test(prefixText.trim())) return undefined;
  const prefix = Number(prefixText);
  return prefix <= max ? [ip, prefix] : undefined;
}

export function cidrContains([network, prefix]: Cidr, ip: IpAddress): boolean {
  // An IPv4 rule also covers the IPv4-mapped form of its addresses.
  const candidate =
    network instanceof ipaddr.IPv4 && ip instanceof ipaddr.IPv6 && ip.isIPv4MappedAddress()
      ? ip.toIPv4Address()
      : ip;
  return candidate.kind() === network.kind() && candidate.match(network, prefix);
}
