export { authRoutes } from './routes.ts';
export { copilotTokenVerifier } from './copilot-token.ts';
export { backchannelLogoutRoutes } from './backchannel-logout.ts';
