import { ROLE_LABELS, ROLES, type Role } from '@cadre/contract';

/** What the admin console says (one place, so the tests read the same words). */
export const ADMIN_TEXT = {
  title: 'Admin',
  intro: 'People, their roles and groups, and the role new accounts get. Every change is audited.',
  people: 'People',
  groups: 'Groups',
  settings: 'Settings',
  accessCodes: 'Access codes',
  search: 'Search by name or email',
  anyRole: 'Any role',
  loadingPeople: 'Loading people...',
  peopleError: 'Error loading people.',
  noPeople: 'Nobody matches.',
  never: 'Never',
  disabled: 'Disabled',
  disable: 'Disable',
  enable: 'Enable',
  delete: 'Delete',
  roleOf: (name: string) => `Role of ${name}`,
  changeFailed: 'The change was not saved',
  disableTitle: 'Disable account',
  disableMessage: (name: string) =>
    `Disable ${name}? They cannot sign in, and every session, chat, copilot token and API key of theirs stops at once. You can enable the account again.`,
  deleteTitle: 'Delete account',
  deleteIntro: (name: string) => `Delete ${name} and everything stored about them? This cannot be undone.`,
  agentsTo: 'Their agents',
  deleteAgents: 'Delete their agents too',
  giveAgentsTo: (name: string) => `Give them to ${name}`,
  confirmLabel: (text: string) => `Type ${text} to confirm`,
  tokens: (tokens: number, cost: number | null) =>
    `${tokens.toLocaleString('en-US')} tokens${cost === null ? '' : ` · $${cost.toFixed(2)}`}`,
  defaultRole: 'Role of new accounts',
  defaultRoleHelp:
    'The first account is always an admin; ADMIN_EMAILS and the identity provider’s role claim decide before this at sign-in.',
  saved: 'Saved',
  loadingGroups: 'Loading groups...',
  groupsError: 'Error loading groups.',
  noGroups: 'No groups yet.',
  newGroup: 'New group',
  groupName: 'Group name',
  create: 'Create',
  rename: 'Rename',
  members: 'Members',
  noMembers: 'Nobody is in this group.',
  addMember: 'Add a person',
  remove: 'Remove',
  fromProvider: 'From the identity provider',
  fromProviderHelp: 'Kept in sync with the identity provider at each sign-in; change it there.',
  deleteGroupTitle: 'Delete group',
  deleteGroupMessage: (name: string) => `Delete the group "${name}"? Its members keep their accounts.`,
  settingsError: 'Error loading the settings.',
} as const;

export const ROLE_OPTIONS: { value: Role; label: string }[] = ROLES.map((role) => ({
  value: role,
  label: ROLE_LABELS[role],
}));

/** How a person is named in the console: their name, else their email, else their id. */
export const personName = (person: { id: number; name: string | null; email: string | null }) =>
  person.name || person.email || `#${person.id}`;
