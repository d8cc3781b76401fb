import { ROLES, type Role } from '@cadre/contract';

/** How sign-in decides an account's role and groups (docs/security.md, "Roles"). */
export interface SignInRules {
  /** Lower-cased emails made admin at sign-in (ADMIN_EMAILS). */
  adminEmails: readonly string[];
  /** The access-token claim naming the role (OIDC_ROLE_CLAIM); only with an external issuer. */
  roleClaim?: string;
  /** The access-token claim listing group names (OIDC_GROUPS_CLAIM); only with an external issuer. */
  groupsClaim?: string;
}

/** Groups a claim may name at most, and the longest name kept; the rest is ignored. */
const MAX_CLAIMED_GROUPS = 100;
const MAX_GROUP_NAME = 100;

const RANK: Record<Role, number> = { member: 0, builder: 1, admin: 2 };

const strings = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.filter((item): item is string => typeof item === 'string')
      : [];

/**
 * The role the configured claim names (a role's name, or a list holding some: the highest wins);
 * undefined when no claim is configured or it names none, so the stored role stays. No other
 * claim, and nothing in a request's body, is ever read for a role.
 */
export function claimedRole(rules: SignInRules, claims: Record<string, unknown>): Role | undefined {
  if (!rules.roleClaim) return undefined;
  const named = strings(claims[rules.roleClaim])
    .map((value) => value.trim().toLowerCase())
    .filter((value): value is Role => (ROLES as readonly string[]).includes(value));
  return named.sort((a, b) => RANK[b] - RANK[a])[0];
}

/**
 * The group names the configured claim lists (trimmed, distinct, at most 100 of up to 100
 * characters); undefined when no claim is configured or the token lacks it, so memberships stay.
 */
export function claimedGroups(rules: SignInRules, claims: Record<string, unknown>): string[] | undefined {
  if (!rules.groupsClaim || !(rules.groupsClaim in claims)) return undefined;
  const names = strings(claims[rules.groupsClaim])
    .map((name) => name.trim())
    .filter((name) => name.length > 0 && name.length <= MAX_GROUP_NAME && !name.includes('\u0000'));
  return [...new Set(names)].slice(0, MAX_CLAIMED_GROUPS);
}

/** Whether ADMIN_EMAILS names the signed-in email (unless the issuer says it is unverified). */
export function promotedByEmail(
  rules: SignInRules,
  email: string | null | undefined,
  claims: Record<string, unknown>,
): boolean {
  if (!email || claims.email_verified === false) return false;
  return rules.adminEmails.includes(email.trim().toLowerCase());
}

/** The role an account signs in with: the claim's (or the stored one), raised to admin by ADMIN_EMAILS. */
export function signInRole(
  rules: SignInRules,
  stored: Role,
  email: string | null | undefined,
  claims: Record<string, unknown>,
): Role {
  if (promotedByEmail(rules, email, claims)) return 'admin';
  return claimedRole(rules, claims) ?? stored;
}
