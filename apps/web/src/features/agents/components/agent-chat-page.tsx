import { Box, Button, Center, chakra, Spinner, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { LoadError } from '../../../components/load-error';
import { useRuntimeConfig } from '../../../config/runtime-config-context';
import { useSession } from '../../../lib/session';
import { getAccessToken } from '../../../lib/access-token';
import { chatFrameUrl, openChatSession } from '../api/chat-session';

/** The full-screen chat with one agent (spec section 2): sign in to the chat service, then frame it. */
export function AgentChatPage({ agentId }: { agentId: number }) {
  const config = useRuntimeConfig();
  const session = useSession();
  const login = useQuery({
    // Not keyed on the token: a silent renewal would otherwise log in again and reload the frame.
    queryKey: ['chatSession', agentId],
    queryFn: async () => {
      const accessToken = await getAccessToken();
      await openChatSession({ chainlitUrl: config.chainlitUrl, agentId, accessToken });
      return true;
    },
    enabled: !session.isLoading,
    retry: false,
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });

  return (
    <Box position="relative" h={{ base: 'calc(100dvh - 57px)', md: '100dvh' }} w="full">
      {login.isSuccess ? (
        <chakra.iframe
          src={chatFrameUrl(config.chainlitUrl)}
          title="Agent chat"
          w="full"
          h="full"
          border="0"
          display="block"
          allow="clipboard-write"
        />
      ) : login.isError ? (
        <Center h="full" px="6">
          <Box maxW="md">
            <LoadError
              title="The chat could not be opened."
              description={login.error.message}
              onRetry={() => void login.refetch()}
            >
              <Button variant="outline" asChild>
                <Link to="/agents">Back to agents</Link>
              </Button>
            </LoadError>
          </Box>
        </Center>
      ) : (
        <Center h="full" aria-busy="true">
          <Stack align="center" gap="3">
            <Spinner size="lg" color="brand.fg" />
            <Text color="fg.muted">Opening the chat...</Text>
          </Stack>
        </Center>
      )}
    </Box>
  );
}
