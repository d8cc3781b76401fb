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

/** Actions are listed by display name. */
export function sortByDisplayName<T extends { display_name: string }>(actions: readonly T[]): T[] {
  return [...actions].sort((a, b) => a.display_name.localeCompare(b.display_name));
}

/**
 * A provider's authorization URL is opened only when it is a web address (test I3): anything else
 * (javascript:, data:, a relative path) is refused instead of handed to window.open.
 */
export function safeRedirectUrl(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
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
