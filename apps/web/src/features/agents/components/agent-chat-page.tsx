import { Box, Button, Center, chakra, Spinner, Stack, Text } from '@chakra-ui/react';
import { chatFrameNoticeSchema, chatFrameUrl, type ChatFrameNotice } from '@cadre/contract';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { outageOfError } from '../../../api/api-error';
import { LoadError } from '../../../components/load-error';
import { useRuntimeConfig } from '../../../config/runtime-config-context';
import { useSession } from '../../../lib/session';
import { getAccessToken } from '../../../lib/access-token';
import { showInFrame } from '../api/chat-frame';
import { openChatSession } from '../api/chat-session';

/**
 * The full-screen chat with one agent (spec section 2): sign in to the chat service for this
 * agent, then frame it. The page's address names the conversation (`threadId`): the frame opens
 * it, tells the page when it shows another (`onThreadShown`), and follows the address when it
 * changes (back/forward).
 */
export function AgentChatPage({
  agentId,
  threadId,
  onThreadShown,
}: {
  agentId: number;
  threadId: string | undefined;
  onThreadShown: (threadId: string | undefined, history: ChatFrameNotice['history']) => void;
}) {
  const config = useRuntimeConfig();
  const session = useSession();
  const frameRef = useRef<HTMLIFrameElement>(null);
  // The conversation the frame shows (undefined: a new chat), as far as the page knows.
  const shown = useRef(threadId);
  const [src, setSrc] = useState(() => chatFrameUrl(config.chainlitUrl, agentId, threadId));

  useEffect(() => {
    if (threadId === shown.current) return;
    shown.current = threadId;
    const url = chatFrameUrl(config.chainlitUrl, agentId, threadId);
    if (frameRef.current) showInFrame(frameRef.current, url);
    else setSrc(url);
  }, [threadId, agentId, config.chainlitUrl]);

  const onShownRef = useRef(onThreadShown);
  const addressRef = useRef(threadId);
  useEffect(() => {
    onShownRef.current = onThreadShown;
    addressRef.current = threadId;
  });
  useEffect(() => {
    const chatOrigin = new URL(config.chainlitUrl, window.location.href).origin;
    // H3: only our own frame, from the chat's origin, in the notice's exact shape.
    const listener = (event: MessageEvent) => {
      const frame = frameRef.current?.contentWindow;
      if (!frame || event.source !== frame || event.origin !== chatOrigin) return;
      const notice = chatFrameNoticeSchema.safeParse(event.data);
      if (!notice.success) return;
      const next = notice.data.threadId ?? undefined;
      shown.current = next;
      if (next !== addressRef.current) onShownRef.current(next, notice.data.history);
    };
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  }, [config.chainlitUrl]);

  const login = useQuery({
    // Not keyed on the token: a silent renewal would otherwise log in again and reload the frame.
    queryKey: ['chatSession', agentId],
    queryFn: async () => {
      const accessToken = await getAccessToken();
      await openChatSession({ chainlitUrl: config.chainlitUrl, agentId, accessToken });
      return true;
    },
    enabled: !session.isLoading,
    // Only an outage is tried again (until it works, as every query is: lib/query-client.ts).
    retry: (_failures, error) => !!outageOfError(error),
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });

  // Below the shell's top bar (57px, SHELL_BAR_HEIGHT in the shell), on every screen width.
  return (
    <Box position="relative" h="calc(100dvh - 57px)" w="full">
      {login.isSuccess ? (
        <chakra.iframe
          ref={frameRef}
          src={src}
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
