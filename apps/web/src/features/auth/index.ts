// The sign-in client (AuthProvider) is loaded on its own by main.tsx, so it is not exported here.
export { hasAuthParams } from './auth-params';
export { useAuthSession, type AuthUser } from './auth-session';
export { AccessCodeGate } from './components/access-code-gate';
export { AuthCallback } from './components/auth-callback';
export { LogoutButton } from './components/logout-button';
export { RequireAuth } from './components/require-auth';
