// The sign-in client (createAuthClient, AuthProvider) is loaded on its own by start.tsx, so it is
// not exported here; its interface is.
export { hasPassedAccessCode } from './access-code';
export { hasAuthParams } from './auth-params';
export type { AuthClient } from './auth-client';
export { useAuthSession, type AuthUser } from './auth-session';
export { AccessCodePage } from './components/access-code-page';
export { AuthCallback } from './components/auth-callback';
export { LoadingScreen } from './components/loading-screen';
export { LogoutButton } from './components/logout-button';
export { createSessionRecovery } from './session-recovery';
