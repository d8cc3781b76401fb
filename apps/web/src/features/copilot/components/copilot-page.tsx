import { Button, Center, Heading, Link as ChakraLink, Spinner, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { LoadError } from '../../../components/load-error';
import { useRuntimeConfig } from '../../../config/runtime-config-context';
import { useSession } from '../../../lib/session';
import { copilotLogin, loadScript } from '../api/copilot-api';
import {
  CALL_FN_EVENT,
  COPILOT_TEXT,
  copilotScriptUrl,
  simulatedAnswer,
  type CallFnDetail,
} from '../constants';

declare global {
  interface Window {
    mountChainlitWidget?: (config: { chainlitServer: string; accessToken?: string }) => void;
    unmountChainlitWidget?: () => void;
  }
}

/**
 * /copilot (spec section 2): mounts the chat service's copilot widget with a copilot token. It
 * stands for a site of the person's own that embeds the widget, outside the protected shell (spec
 * section 2), so it has no sidebar or user menu: a link leads back to Cadre instead.
 */
export function CopilotPage() {
  const config = useRuntimeConfig();
  const session = useSession();
  const ready = !session.isLoading && session.isSignedIn;

  const mount = useQuery({
    // Not keyed on the token: a silent renewal would otherwise mount the widget again.
    queryKey: ['copilotMount'],
    queryFn: async () => {
      const [copilot_auth_token] = await Promise.all([
        copilotLogin(),
        loadScript(copilotScriptUrl(config.chainlitUrl)),
      ]);
      if (!window.mountChainlitWidget) throw new Error('The copilot script did not load.');
      window.mountChainlitWidget({ chainlitServer: config.chainlitUrl, accessToken: copilot_auth_token });
      return true;
    },
    enabled: ready,
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });

  useEffect(() => {
    const onCall = (event: Event) => {
      const detail = (event as CustomEvent<CallFnDetail>).detail;
      detail?.callback?.(simulatedAnswer(detail));
    };
    window.addEventListener(CALL_FN_EVENT, onCall);
    return () => {
      window.removeEventListener(CALL_FN_EVENT, onCall);
      window.unmountChainlitWidget?.();
    };
  }, []);

  return (
    <Center as="main" minH="100vh" px="6">
      <Stack gap="4" maxW="lg" align="center" textAlign="center">
        <Heading as="h1" size="2xl">
          Copilot
        </Heading>
        {session.isLoading ? (
          <Spinner color="brand.fg" aria-label="Loading" />
        ) : !session.isSignedIn ? (
          <Stack gap="3" align="center">
            <Text>{COPILOT_TEXT.signInNeeded}</Text>
            {session.signIn ? (
              <Button colorPalette="brand" onClick={() => void session.signIn?.()}>
                Sign in
              </Button>
            ) : (
              <Button colorPalette="brand" asChild>
                <Link to="/info">Sign in</Link>
              </Button>
            )}
          </Stack>
        ) : mount.isError ? (
          <LoadError title="The copilot could not be loaded." description={mount.error.message} />
        ) : (
          <Text fontSize="lg">{COPILOT_TEXT.loaded}</Text>
        )}
        <ChakraLink asChild color="brand.fg" fontSize="sm">
          <Link to="/info">{COPILOT_TEXT.back}</Link>
        </ChakraLink>
      </Stack>
    </Center>
  );
}
