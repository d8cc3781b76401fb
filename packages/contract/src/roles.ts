import { z } from 'zod';

/**
 * What an account may do in the workspace (docs/security.md, "Roles"): `admin` runs the workspace
 * (the admin console), `builder` creates agents, registers services and keys, and `member` uses
 * the agents shared with them and connects the services those need.
 */
export const ROLES = ['admin', 'builder', 'member'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/** The role an account gets when nothing else decides (a fresh account with no setting stored). */
export const DEFAULT_ROLE: Role = 'builder';

/** What each role is called in the clients. */
export const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', builder: 'Builder', member: 'Member' };
