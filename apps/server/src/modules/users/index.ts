export { createUsersService, type UsersService } from './service.ts';
export { usersRoutes } from './routes.ts';
