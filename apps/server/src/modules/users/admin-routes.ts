import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorSchema,
  groupCreateSchema,
  groupListSchema,
  groupMemberParamsSchema,
  groupParamsSchema,
  groupSchema,
  groupUpdateSchema,
  pageQuerySchema,
  PEOPLE_PAGE_DEFAULT,
  peopleQuerySchema,
  personDeleteSchema,
  personListSchema,
  personParamsSchema,
  personSchema,
  personUpdateSchema,
  validationErrorSchema,
  workspaceSettingsSchema,
  workspaceSettingsUpdateSchema,
} from '@cadre/contract';
import { z } from 'zod';
import { objectErrors, operations } from '../../http/openapi.ts';
import { nextPageLink } from '../../http/paging.ts';
import type { GroupsAdmin } from './groups-admin.ts';
import type { PeopleAdmin } from './people-admin.ts';

const op = operations('admin');
/** Every admin route: the policy lets only admins through (security/policy.ts). */
const admin = { config: { permission: 'administer' } } as const;
const errors = { ...objectErrors, 403: errorSchema, 409: errorSchema };
const noContent = z.null().describe('Done');

/** The admin console's API under `/api/v1/admin/` (docs/api.md, "Admin"). */
export const adminRoutes: FastifyPluginAsyncZod<{ people: PeopleAdmin; groups: GroupsAdmin }> = async (
  app,
  { people, groups },
) => {
  app.get(
    '/api/v1/admin/people',
    {
      ...admin,
      ...op(
        'listPeople',
        'Accounts with role, groups, last activity and this month’s usage, a page at a time',
        {
          querystring: peopleQuerySchema.extend(pageQuerySchema.shape),
          response: { 200: personListSchema, 401: errorSchema, 403: errorSchema, 422: validationErrorSchema },
        },
      ),
    },
    async (request, reply) => {
      const { limit = PEOPLE_PAGE_DEFAULT, cursor, ...filter } = request.query;
      const page = await people.page(filter, Number(cursor ?? 0), limit);
      if (page.nextAfter !== null) reply.header('link', nextPageLink(request.url, limit, page.nextAfter));
      reply.header('cache-control', 'no-store');
      return page.people;
    },
  );

  app.get(
    '/api/v1/admin/people/:user_id',
    {
      ...admin,
      ...op('getPerson', 'One account', {
        params: personParamsSchema,
        response: { 200: personSchema, ...errors },
      }),
    },
    async (request) => people.get(request.params.user_id),
  );

  app.patch(
    '/api/v1/admin/people/:user_id',
    {
      ...admin,
      ...op('updatePerson', 'Changes an account’s role, or disables or enables it', {
        params: personParamsSchema,
        body: personUpdateSchema,
        response: { 200: personSchema, ...errors },
      }),
    },
    async (request) => people.update(request.user, request.params.user_id, request.body),
  );

  app.delete(
    '/api/v1/admin/people/:user_id',
    {
      ...admin,
      ...op('deletePerson', 'Deletes an account, handing its agents to another or deleting them too', {
        params: personParamsSchema,
        body: personDeleteSchema,
        response: { 204: noContent, ...errors },
      }),
    },
    async (request, reply) => {
      await people.delete(request.user, request.params.user_id, request.body);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/admin/groups',
    {
      ...admin,
      ...op('listGroups', 'Every group, by name', { response: { 200: groupListSchema, ...errors } }),
    },
    async () => groups.list(),
  );

  app.post(
    '/api/v1/admin/groups',
    {
      ...admin,
      ...op('createGroup', 'Creates a group', {
        body: groupCreateSchema,
        response: { 201: groupSchema, ...errors },
      }),
    },
    async (request, reply) => reply.code(201).send(await groups.create(request.user, request.body)),
  );

  app.patch(
    '/api/v1/admin/groups/:group_id',
    {
      ...admin,
      ...op('renameGroup', 'Renames a group made here', {
        params: groupParamsSchema,
        body: groupUpdateSchema,
        response: { 200: groupSchema, ...errors },
      }),
    },
    async (request) => groups.rename(request.user, request.params.group_id, request.body),
  );

  app.delete(
    '/api/v1/admin/groups/:group_id',
    {
      ...admin,
      ...op('deleteGroup', 'Deletes a group made here', {
        params: groupParamsSchema,
        response: { 204: noContent, ...errors },
      }),
    },
    async (request, reply) => {
      await groups.delete(request.user, request.params.group_id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/admin/groups/:group_id/members',
    {
      ...admin,
      ...op('listGroupMembers', 'The people in a group', {
        params: groupParamsSchema,
        response: { 200: personListSchema, ...errors },
      }),
    },
    async (request) => people.some(await groups.memberIds(request.params.group_id)),
  );

  for (const [method, member] of [
    ['put', true],
    ['delete', false],
  ] as const) {
    app[method](
      '/api/v1/admin/groups/:group_id/members/:user_id',
      {
        ...admin,
        ...op(
          member ? 'addGroupMember' : 'removeGroupMember',
          member ? 'Adds a person to a group made here' : 'Removes a person from a group made here',
          {
            params: groupMemberParamsSchema,
            response: { 204: noContent, ...errors },
          },
        ),
      },
      async (request, reply) => {
        await groups.setMember(request.user, request.params.group_id, request.params.user_id, member);
        return reply.code(204).send(null);
      },
    );
  }

  app.get(
    '/api/v1/admin/settings',
    {
      ...admin,
      ...op('getWorkspaceSettings', 'The workspace’s settings', {
        response: { 200: workspaceSettingsSchema, ...errors },
      }),
    },
    async () => people.settings(),
  );

  app.patch(
    '/api/v1/admin/settings',
    {
      ...admin,
      ...op('updateWorkspaceSettings', 'Changes the workspace’s settings', {
        body: workspaceSettingsUpdateSchema,
        response: { 200: workspaceSettingsSchema, ...errors },
      }),
    },
    async (request) => people.updateSettings(request.user, request.body),
  );
};
