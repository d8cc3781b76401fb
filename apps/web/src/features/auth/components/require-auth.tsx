import { Button, Center, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef, type ReactNode } from 'react';
import { useAuthSession } from '../auth-session';

export function LoadingScreen() {
  return (
    <Center minH="100vh" aria-busy="true">
      <Text>Loading...</Text>
    </Center>
  );
}

/**
 * Identity sign-in for the protected shell: 'Loading...' while the session loads, a redirect to
 * the provider (remembering the current path) when signed out, the children when signed in.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useAuthSession();
  const redirecting = useRef(false);

  useEffect(() => {
    if (session.status !== 'signedOut' || redirecting.current) return;
    redirecting.current = true;
    const { pathname, search, hash } = window.location;
    void session.signIn(`${pathname}${search}${hash}`);
  }, [session]);

  if (session.status === 'signedIn') return <>{children}</>;
  if (session.status === 'error') {
    return (
      <Center minH="100vh" px="4">
        <Stack gap="4" align="center" role="alert">
          <Text fontWeight="semibold">Sign-in failed.</Text>
          <Text color="fg.muted">{session.error?.message}</Text>
          <Button colorPalette="brand" onClick={() => void session.signIn('/info')}>
            Sign in again
          </Button>
        </Stack>
      </Center>
    );
  }
  return <LoadingScreen />;
}
