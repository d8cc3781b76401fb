import type { Role } from '@cadre/contract';
import { HttpError } from '../http/errors.ts';

/**
 * The one authorization policy (DESIGN.md section 4; docs/security.md, "Roles"): what each role
 * may do. A route names the permission it needs in its options (`config: { permission }`) and the
 * token check asks {@link authorize} before the handler runs; no route checks a role by hand.
 * Owner checks stay in the queries (another user's id answers 404); sharing adds its checks here.
 */
export const PERMISSIONS = [
  /** Create, change, import, restore and delete agents; their files, tools and templates. */
  'build_agents',
  /** Register MCP servers of one's own (connecting a catalog service needs nothing). */
  'register_services',
  /** Set up an agent's triggers: its signing secret, and running it from a trigger call. */
  'manage_triggers',
  /** Create personal API keys (listing and revoking one's own needs nothing). */
  'create_api_keys',
  /** The admin console: people, roles, groups and the workspace's settings. */
  'administer',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const BUILDER: readonly Permission[] = [
  'build_agents',
  'register_services',
  'manage_triggers',
  'create_api_keys',
];

export const ROLE_PERMISSIONS: Readonly<Record<Role, ReadonlySet<Permission>>> = {
  admin: new Set(PERMISSIONS),
  builder: new Set(BUILDER),
  member: new Set(),
};

/** What a refusal tells the caller is missing, for each permission. */
const NEEDS: Record<Permission, string> = {
  build_agents: 'Creating or changing agents needs the builder or admin role',
  register_services: 'Registering an MCP server needs the builder or admin role',
  manage_triggers: "Setting up or running an agent's triggers needs the builder or admin role",
  create_api_keys: 'Creating API keys needs the builder or admin role',
  administer: 'The admin console needs the admin role',
};

export const can = (user: { role: Role }, permission: Permission): boolean =>
  ROLE_PERMISSIONS[user.role].has(permission);

/** Throws the 403 naming what is missing unless the user's role grants the permission. */
export function authorize(user: { role: Role }, permission: Permission): void {
  if (!can(user, permission)) {
    throw new HttpError('forbidden', `${NEEDS[permission]}; this account is a ${user.role}`);
  }
}

/** Whether an account may still change its own role or standing: never the last active admin. */
export const LAST_ADMIN_DETAIL =
  'This is the last active admin: make another account admin first, so the workspace keeps one';
