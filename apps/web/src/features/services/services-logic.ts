import type { Service } from './api/services-api';

export type AuthKind = 'apiKey' | 'noAuth' | 'oauth';

/** The scheme a service registers with: its first one; a service that lists none needs no auth. */
export function authScheme(service: Pick<Service, 'auth_schemes'>): string {
  return service.auth_schemes[0] ?? 'NO_AUTH';
}

/** API_KEY, NO_OAUTH and NO_AUTH are their own flows; any other scheme means OAuth/token (spec section 3). */
export function authKind(service: Pick<Service, 'auth_schemes'>): AuthKind {
  const scheme = authScheme(service);
  if (scheme === 'API_KEY') return 'apiKey';
  if (scheme === 'NO_OAUTH' || scheme === 'NO_AUTH') return 'noAuth';
  return 'oauth';
}

/** Active services first, then by name. */
export function sortServices<T extends Pick<Service, 'status' | 'name'>>(services: readonly T[]): T[] {
  return [...services].sort((a, b) => {
    const active = Number(b.status === 'ACTIVE') - Number(a.status === 'ACTIVE');
    return active !== 0 ? active : a.name.localeCompare(b.name);
  });
}

/**
 * The agents with at least one tool of the service `serviceId`, by name. By id: two services may
 * share a name (a custom MCP server called "Calculator").
 */
export function agentsUsing<T extends { name: string; tools: readonly { service_id: number }[] }>(
  agents: readonly T[],
  serviceId: number,
): T[] {
  return agents
    .filter((agent) => agent.tools.some((tool) => tool.service_id === serviceId))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * `sorted` in the order of `held` (ids) where both have an item, so that a card does not move while
 * someone is about to press it; items `held` does not know keep their sorted place after the rest.
 */
export function keepOrder<T extends { id: number }>(
  sorted: readonly T[],
  held: readonly number[] | null,
): T[] {
  if (!held) return [...sorted];
  const place = new Map(held.map((id, index) => [id, index]));
  return [...sorted].sort(
    (a, b) => (place.get(a.id) ?? Number.MAX_SAFE_INTEGER) - (place.get(b.id) ?? Number.MAX_SAFE_INTEGER),
  );
}

/** Actions are listed by display name. */
export function sortByDisplayName<T extends { display_name: string }>(actions: readonly T[]): T[] {
  return [...actions].sort((a, b) => a.display_name.localeCompare(b.display_name));
}

/**
 * A provider's authorization URL is opened only when it is an https address (test I3): anything
 * else (http:, javascript:, data:, a relative path) is refused instead of handed to window.open.
 * The server already refuses links off the provider's own hosts; this is the second check.
 */
export function safeRedirectUrl(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export type RegistrationOutcome =
  { kind: 'redirect'; url: string } | { kind: 'active' } | { kind: 'notActive' } | { kind: 'failed' };

/** What a registration answer means for each kind of service (spec section 4). */
export function registrationOutcome(
  kind: AuthKind,
  response: { redirectUrl?: string | null; connectionStatus?: string | null } | null | undefined,
): RegistrationOutcome {
  if (kind === 'noAuth') return { kind: 'active' };
  if (kind === 'oauth' && response?.redirectUrl) {
    const url = safeRedirectUrl(response.redirectUrl);
    return url ? { kind: 'redirect', url } : { kind: 'failed' };
  }
  return response?.connectionStatus === 'ACTIVE' ? { kind: 'active' } : { kind: 'notActive' };
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** How long ago `iso` was, as people say it: "just now", "5 minutes ago", "yesterday". */
export function timeAgo(iso: string, now: number = Date.now()): string {
  const seconds = Math.max(0, (now - Date.parse(iso)) / 1000);
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return relative.format(-Math.floor(seconds / size), unit);
  }
  return 'just now';
}
