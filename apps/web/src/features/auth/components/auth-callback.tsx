import { Button, Center, Stack, Text } from '@chakra-ui/react';
import { useAuthSession } from '../auth-session';
import { LoadingScreen } from './loading-screen';

/**
 * What `/` shows while the provider's answer (code and state in the URL) is being exchanged; the
 * sign-in client then moves on to the remembered path. A failed exchange shows its error.
 */
export function AuthCallback() {
  const session = useAuthSession();
  if (session.status !== 'error') return <LoadingScreen />;
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
