// No zod here: the web app reads this table on its first paint (docs/benchmarks.md, "First visit
// JS"); roles.ts holds the schema.
/**
 * What an account may do in the workspace (docs/security.md, "Roles"): `admin` runs the workspace
 * (the admin console), `builder` creates agents, registers services and keys, and `member` uses
 * the agents shared with them and connects the services those need.
 */
export const ROLES = ['admin', 'builder', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** The role an account gets when nothing else decides (a fresh account with no setting stored). */
export const DEFAULT_ROLE: Role = 'builder';

/** What each role is called in the clients. */
export const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', builder: 'Builder', member: 'Member' };

/**
 * What a role may do beyond using agents and connecting services (docs/security.md, "Roles"). The
 * server's one policy (security/policy.ts) enforces this table; the clients read it to hide what a
 * role cannot do.
 */
export const PERMISSIONS = [
  /** Create, change, import, restore and delete agents; their files, tools and templates. */
  'build_agents',
  /** Register MCP servers of one's own (connecting a catalog service needs nothing). */
  'register_services',
  /** Turn an agent's signed trigger calls on (its secret) or off. */
  'manage_triggers',
  /** Create personal API keys (listing and revoking one's own needs nothing). */
  'create_api_keys',
  /** The admin console: people, roles, groups and the workspace's settings. */
  'administer',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const BUILDER_PERMISSIONS: readonly Permission[] = [
  'build_agents',
  'register_services',
  'manage_triggers',
  'create_api_keys',
];

export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  admin: PERMISSIONS,
  builder: BUILDER_PERMISSIONS,
  member: [],
};

/** Whether the role grants the permission. */
export const roleCan = (role: Role, permission: Permission): boolean =>
  ROLE_PERMISSIONS[role].includes(permission);
