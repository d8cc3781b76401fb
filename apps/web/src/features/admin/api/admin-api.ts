/**
 * The admin console's calls as its screen uses them: the generated SDK's query options and
 * mutations, so paths and query keys are never retyped.
 */
import type { QueryClient } from '@tanstack/react-query';
import * as sdk from '../../../client/sdk.gen';
import { listPeopleInfiniteQueryKey } from '../../../client/@tanstack/react-query.gen';
import type {
  ListAccessCodesResponse,
  ListGroupsResponse,
  ListPeopleData,
  ListPeopleResponse,
} from '../../../client/types.gen';
import { LIST_PAGE_SIZE, pagedListOptions } from '../../../lib/paged-list';

export type Person = ListPeopleResponse[number];
export type Group = ListGroupsResponse[number];
export type PeopleFilter = Omit<NonNullable<ListPeopleData['query']>, 'limit' | 'cursor'>;

export type AccessCode = ListAccessCodesResponse[number];

export {
  addGroupMemberMutation,
  createAccessCodeMutation,
  listAccessCodesOptions,
  listAccessCodesQueryKey,
  revokeAccessCodeMutation,
  createGroupMutation,
  deleteGroupMutation,
  deletePersonMutation,
  getWorkspaceSettingsOptions,
  listGroupMembersOptions,
  listGroupsOptions,
  removeGroupMemberMutation,
  renameGroupMutation,
  updatePersonMutation,
  updateWorkspaceSettingsMutation,
} from '../../../client/@tanstack/react-query.gen';

/** The people matching a search and role, a page at a time. */
export const peoplePagesOptions = (filter: PeopleFilter) =>
  pagedListOptions<Person, ReturnType<typeof listPeopleInfiniteQueryKey>>(
    listPeopleInfiniteQueryKey({ query: { limit: LIST_PAGE_SIZE, ...filter } }),
    (options) => sdk.listPeople({ ...options, query: { ...options.query, ...filter } }),
  );

/** After a change: the people (any search), the groups and their members are read again. */
export async function refreshAdmin(queryClient: QueryClient) {
  await Promise.all(
    ['listPeople', 'getPerson', 'listGroups', 'listGroupMembers'].map((_id) =>
      queryClient.invalidateQueries({ queryKey: [{ _id }] }),
    ),
  );
}
