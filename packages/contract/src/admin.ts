import { z } from 'zod';
import { pathIdSchema } from './agents.ts';
import { roleSchema } from './roles.ts';

/**
 * The admin console's API (`/api/v1/admin/...`, every route admin-only): people, groups and the
 * workspace's settings (docs/api.md, "Admin").
 */

/** Where a group comes from: made by an admin, or kept in sync with the issuer's groups claim. */
export const GROUP_SOURCES = ['manual', 'oidc'] as const;
export const groupSourceSchema = z.enum(GROUP_SOURCES);

const groupName = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(100, 'must be at most 100 characters')
  .refine((name) => !name.includes('\u0000'), 'must not contain NUL characters');

export const groupRefSchema = z.object({ id: z.number(), name: z.string(), source: groupSourceSchema });
export type GroupRef = z.infer<typeof groupRefSchema>;

export const groupSchema = groupRefSchema.extend({
  member_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Group = z.infer<typeof groupSchema>;
export const groupListSchema = z.array(groupSchema);

export const groupCreateSchema = z.strictObject({ name: groupName });
export type GroupCreate = z.infer<typeof groupCreateSchema>;
export const groupUpdateSchema = groupCreateSchema;
export type GroupUpdate = z.infer<typeof groupUpdateSchema>;

/** One account as the People section lists it. */
export const personSchema = z.object({
  id: z.number(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  picture: z.string().nullable(),
  role: roleSchema,
  /** When an admin disabled the account; null while it may sign in. */
  disabled_at: z.string().nullable(),
  created_at: z.string(),
  /** The last request the account made (kept to the hour); null if it never made one. */
  last_active_at: z.string().nullable(),
  groups: z.array(groupRefSchema),
  /** Input plus output tokens this UTC month, and their cost in USD (null: no price known). */
  month_tokens: z.number(),
  month_cost: z.number().nullable(),
});
export type Person = z.infer<typeof personSchema>;
export const personListSchema = z.array(personSchema);

export const peopleQuerySchema = z.object({
  /** Part of the name or email, any case. */
  q: z.string().trim().max(200, 'must be at most 200 characters').optional(),
  role: roleSchema.optional(),
});
export type PeopleQuery = z.infer<typeof peopleQuerySchema>;

export const personUpdateSchema = z
  .strictObject({ role: roleSchema.optional(), disabled: z.boolean().optional() })
  .refine((body) => body.role !== undefined || body.disabled !== undefined, 'name a role or disabled');
export type PersonUpdate = z.infer<typeof personUpdateSchema>;

/**
 * Deleting an account: `confirmation` is the account's email (or its name when it has no email,
 * or its id when it has neither) typed again; `agents_to` names who receives its agents, or null
 * to delete them with the account.
 */
export const personDeleteSchema = z.strictObject({
  confirmation: z.string().max(400),
  agents_to: pathIdSchema.nullable(),
});
export type PersonDelete = z.infer<typeof personDeleteSchema>;

/** What an account's deletion must be confirmed with (see personDeleteSchema). */
export const deletionConfirmationOf = (person: Pick<Person, 'id' | 'email' | 'name'>): string =>
  person.email ?? person.name ?? String(person.id);

export const workspaceSettingsSchema = z.object({
  /** The role a new account gets (ADMIN_EMAILS and the issuer's role claim still decide first). */
  default_role: roleSchema,
});
export type WorkspaceSettings = z.infer<typeof workspaceSettingsSchema>;
export const workspaceSettingsUpdateSchema = workspaceSettingsSchema.partial().strict();
export type WorkspaceSettingsUpdate = z.infer<typeof workspaceSettingsUpdateSchema>;

export const personParamsSchema = z.strictObject({ user_id: pathIdSchema });
export const groupParamsSchema = z.strictObject({ group_id: pathIdSchema });
export const groupMemberParamsSchema = z.strictObject({ group_id: pathIdSchema, user_id: pathIdSchema });

/** People listed per page when the call names no `limit`. */
export const PEOPLE_PAGE_DEFAULT = 50;

/** Where an access code comes from: made here, BETA_ACCESS_CODES, or generated at first start. */
export const ACCESS_CODE_SOURCES = ['admin', 'environment', 'generated'] as const;

export const accessCodeSchema = z.object({
  /** Null for the codes of the environment and the generated one, which cannot be revoked here. */
  id: z.number().nullable(),
  source: z.enum(ACCESS_CODE_SOURCES),
  label: z.string(),
  /** The whole code for the environment's and the generated one; null for one made here (shown once). */
  code: z.string().nullable(),
  /** The code's last four characters. */
  hint: z.string(),
  expires_at: z.string().nullable(),
  max_uses: z.number().nullable(),
  /** Correct entries of the code so far (null where they are not counted: the environment's). */
  uses: z.number().nullable(),
  revoked_at: z.string().nullable(),
  created_at: z.string().nullable(),
});
export type AccessCode = z.infer<typeof accessCodeSchema>;
export const accessCodeListSchema = z.array(accessCodeSchema);

export const accessCodeCreateSchema = z.strictObject({
  label: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  /** When the code stops working (ISO 8601, in the future); null or absent: never. */
  expires_at: z.iso.datetime({ offset: true }).nullish(),
  /** How many times the code may be entered; null or absent: any number. */
  max_uses: z.number().int().min(1).max(1_000_000).nullish(),
});
export type AccessCodeCreate = z.infer<typeof accessCodeCreateSchema>;
/** The answer to making a code: the only time a code made here is shown whole. */
export const accessCodeCreatedSchema = accessCodeSchema.extend({ code: z.string() });
export const accessCodeParamsSchema = z.strictObject({ code_id: pathIdSchema });
