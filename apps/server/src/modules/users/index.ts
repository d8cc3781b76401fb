export { createUsersService, type UsersService } from './service.ts';
export { usersRoutes } from './routes.ts';
export { chatUserData } from './chat-user-data.ts';
