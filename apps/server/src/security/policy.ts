import { roleCan, type Permission, type Role } from '@cadre/contract';
import { HttpError } from '../http/errors.ts';

/**
 * The one authorization policy (DESIGN.md section 4; docs/security.md, "Roles"): what each role
 * may do, by the contract's table (`ROLE_PERMISSIONS`, which the clients read too). A route names
 * the permission it needs in its options (`config: { permission }`) and the token check asks
 * {@link authorize} before the handler runs; no route checks a role by hand. Owner checks stay in
 * the queries (another user's id answers 404); sharing adds its checks here.
 */
export type { Permission };

/** What a refusal tells the caller is missing, for each permission. */
const NEEDS: Record<Permission, string> = {
  build_agents: 'Creating or changing agents needs the builder or admin role',
  register_services: 'Registering an MCP server needs the builder or admin role',
  manage_triggers: "Turning an agent's trigger calls on or off needs the builder or admin role",
  create_api_keys: 'Creating API keys needs the builder or admin role',
  administer: 'The admin console needs the admin role',
};

export const can = (user: { role: Role }, permission: Permission): boolean => roleCan(user.role, permission);

/** Throws the 403 naming what is missing unless the user's role grants the permission. */
export function authorize(user: { role: Role }, permission: Permission): void {
  if (!can(user, permission)) {
    throw new HttpError('forbidden', `${NEEDS[permission]}; this account is a ${user.role}`);
  }
}

/** Why a change is refused that would leave the workspace without an active admin. */
export const LAST_ADMIN_DETAIL =
  'This is the last active admin: make another account admin first, so the workspace keeps one';
