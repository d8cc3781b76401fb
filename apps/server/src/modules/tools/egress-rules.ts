import type { Config } from '../../config.ts';
import { blockedReason, cidrContains, parseCidr, parseIp, type Cidr } from './ip-ranges.ts';

/**
 * The egress guard's rules, apart from the code that opens sockets (`egress.ts`, the only module
 * that does): the policy a caller passes, the static checks on a URL before any socket, and the
 * check on every address a host resolves to. Error messages name the host only: a query string
 * may carry an API key.
 */

export interface EgressPolicy {
  /** Host names (`api.example.com`, `*.example.com`) the caller may reach; unset means any public host. */
  allowHosts?: readonly string[];
  /** EGRESS_ALLOW_PRIVATE: host names or CIDRs allowed although private (tests, intranet MCP). */
  allowPrivate?: readonly string[];
  allowedPorts?: readonly number[];
  maxRedirects?: number;
  /** Response body cap in bytes (safeFetch; each response of createGuardedFetch). */
  maxBytes?: number;
  /** Whole call, including redirects and reading the body (safeFetch). */
  timeoutMs?: number;
  connectTimeoutMs?: number;
  /** Replaces DNS (tests stub it to prove the validated address is the one connected to). */
  resolve?: (host: string) => Promise<string[]>;
}

/**
 * The policy of a provider that talks to one configured host: only that host, private addresses
 * only where EGRESS_ALLOW_PRIVATE allows them, with the caller's own time and size limits.
 */
export function hostPolicy(
  config: Config,
  url: string,
  limits: Pick<EgressPolicy, 'timeoutMs' | 'maxBytes'>,
): EgressPolicy {
  return { allowHosts: [new URL(url).hostname], allowPrivate: config.tools.egressAllowPrivate, ...limits };
}

export type EgressErrorCode = 'blocked' | 'timeout' | 'too_large' | 'too_many_redirects' | 'network';

export class EgressError extends Error {
  constructor(
    readonly code: EgressErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'EgressError';
  }
}

const DEFAULT_PORTS = [80, 443];

const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.com',
  'instance-data',
  'instance-data.ec2.internal',
]);

interface Allowance {
  hosts: Set<string>;
  cidrs: Cidr[];
}

function allowanceOf(policy: EgressPolicy): Allowance {
  const hosts = new Set<string>();
  const cidrs: Cidr[] = [];
  for (const raw of policy.allowPrivate ?? []) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const cidr = parseCidr(entry);
    if (cidr) cidrs.push(cidr);
    else hosts.add(entry);
  }
  return { hosts, cidrs };
}

export const stripBrackets = (host: string) => (host.startsWith('[') ? host.slice(1, -1) : host);

function hostMatches(host: string, pattern: string): boolean {
  const p = pattern.toLowerCase();
  if (p.startsWith('*.')) return host.endsWith(p.slice(1)) && host.length > p.length - 1;
  return host === p;
}

/** The static checks, before any socket: scheme, credentials, host allowlist, names, literals, port. */
export function checkUrl(input: string | URL, policy: EgressPolicy = {}): URL {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    throw new EgressError('blocked', 'The URL is not valid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EgressError('blocked', `The scheme ${url.protocol} is not allowed; use http or https`);
  }
  if (url.username || url.password) {
    throw new EgressError('blocked', 'URLs with credentials are not allowed');
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (policy.allowHosts && !policy.allowHosts.some((p) => hostMatches(host, p))) {
    throw new EgressError('blocked', `This tool may not reach ${host}`);
  }
  const allowance = allowanceOf(policy);
  const literal = parseIp(stripBrackets(host));
  const privateAllowed =
    allowance.hosts.has(host) ||
    (literal !== undefined && allowance.cidrs.some((c) => cidrContains(c, literal)));
  if (!privateAllowed) {
    if (literal) {
      const reason = blockedReason(literal);
      if (reason) throw new EgressError('blocked', `The address ${host} is not allowed (${reason})`);
    } else if (
      host === 'localhost' ||
      host.endsWith('.localhost') ||
      host.endsWith('.internal') ||
      host.endsWith('.local') ||
      METADATA_HOSTS.has(host) ||
      !host.includes('.')
    ) {
      throw new EgressError('blocked', `The host ${host} is not allowed`);
    }
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    if (!(policy.allowedPorts ?? DEFAULT_PORTS).includes(port)) {
      throw new EgressError('blocked', `The port ${port} is not allowed`);
    }
  }
  return url;
}

/**
 * Checks one address a host resolved to: refused unless public, or allowed by EGRESS_ALLOW_PRIVATE
 * (by the host's name or a network that holds the address).
 */
export function checkAddress(host: string, address: string, policy: EgressPolicy): void {
  const ip = parseIp(address);
  if (!ip) throw new EgressError('blocked', `The host ${host} resolved to an unusable address`);
  const allowance = allowanceOf(policy);
  if (allowance.hosts.has(host) || allowance.cidrs.some((c) => cidrContains(c, ip))) return;
  const reason = blockedReason(ip);
  if (reason) throw new EgressError('blocked', `The host ${host} resolves to a ${reason} address`);
}
