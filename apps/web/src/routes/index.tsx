import { createFileRoute, redirect } from '@tanstack/react-router';
import { AuthCallback, hasAuthParams } from '../features/auth';

/**
 * `/` goes to /info, except when the identity provider sends the browser back here with a code:
 * then the sign-in client finishes and moves on to the path remembered before sign-in.
 */
export const Route = createFileRoute('/')({
  beforeLoad: () => {
    if (hasAuthParams()) return;
    throw redirect({ to: '/info', replace: true });
  },
  component: AuthCallback,
});
