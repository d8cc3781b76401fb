import { errorCodeOf, roleCan, type Permission } from '@cadre/contract';
import { ApiError } from '../api/api-error';
import { useQuery } from '@tanstack/react-query';
import { getMeOptions } from '../client/@tanstack/react-query.gen';

/** The signed-in account's profile with its role (`GET /users/me`); a role change shows within a minute. */
export const useMe = (enabled = true) => useQuery({ ...getMeOptions(), staleTime: 60_000, enabled });

/**
 * Whether the signed-in account's role allows this (the contract's table, which the server
 * enforces). False until the role is known, so nothing shows that the server would refuse.
 */
export function useCan(permission: Permission): boolean {
  const role = useMe().data?.role;
  return role !== undefined && roleCan(role, permission);
}

/**
 * Whether the API refused the signed-in account because an admin disabled it; asks only when
 * `enabled` (nothing is loaded behind the access-code page).
 */
export function useAccountDisabled(enabled: boolean): boolean {
  const error = useMe(enabled).error;
  return error instanceof ApiError && errorCodeOf(error.body) === 'account_disabled';
}
