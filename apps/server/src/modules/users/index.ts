export { createUsersService, type UsersService } from './service.ts';
export { usersRoutes } from './routes.ts';
export { adminRoutes } from './admin-routes.ts';
export { createGroupsAdmin } from './groups-admin.ts';
export { createPeopleAdmin } from './people-admin.ts';
export type { MonthUsage } from './ports.ts';
