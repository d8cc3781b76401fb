export { authRoutes } from './routes.ts';
export { copilotTokenVerifier } from './copilot-token.ts';
