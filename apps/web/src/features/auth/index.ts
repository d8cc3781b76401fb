export { AuthProvider, hasAuthParams } from './auth-provider';
export { getAccessToken } from './access-token';
export { useAuthSession, useCurrentUser, type AuthUser } from './auth-session';
export { AccessCodeGate } from './components/access-code-gate';
export { AuthCallback } from './components/auth-callback';
export { LogoutButton } from './components/logout-button';
export { RequireAuth } from './components/require-auth';
