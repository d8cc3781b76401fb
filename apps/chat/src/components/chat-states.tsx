import { Alert, Button, Flex, Spinner, Stack, Text } from '@chakra-ui/react';
import { OUTAGE_NOTICE } from '@cadre/contract';
import { useOutage } from '../lib/outage';

/** What the frame shows in place of a chat: while it loads, when it could not, and after it ended. */

export function ChatLoading() {
  return (
    <Flex h="full" direction="column">
      <OutageNotice />
      <Flex flex="1" align="center" justify="center">
        <Spinner aria-label="Loading" />
      </Flex>
    </Flex>
  );
}

/**
 * One calm line while the frame's reads wait out an outage (lib/outage.ts); it goes away by itself
 * when Cadre answers again. Polite, not an alert: nothing is asked of the person.
 */
export function OutageNotice() {
  const outage = useOutage();
  if (!outage) return null;
  return (
    <Alert.Root status="warning" role="status" aria-live="polite" size="sm" data-testid="outage-notice">
      <Alert.Indicator>
        <Spinner size="sm" />
      </Alert.Indicator>
      <Alert.Title>{OUTAGE_NOTICE[outage]}</Alert.Title>
    </Alert.Root>
  );
}

export function ChatLoadFailed({ message }: { message: string }) {
  return (
    <Flex h="full" align="center" justify="center" p="6">
      <Stack textAlign="center" gap="3" role="alert">
        <Text fontWeight="semibold">The chat could not load</Text>
        <Text color="fg.muted" fontSize="sm">
          {message}
        </Text>
        <Button size="sm" onClick={() => window.location.reload()}>
          Retry
        </Button>
      </Stack>
    </Flex>
  );
}

/** The chat session ended (it expired, or the person signed out): the agent is reopened from Cadre. */
export function SessionEnded() {
  return (
    <Flex h="full" align="center" justify="center" p="6" data-testid="session-ended">
      <Stack textAlign="center" gap="2">
        <Text fontWeight="semibold">Your chat session has ended — reopen the agent</Text>
        <Text color="fg.muted" fontSize="sm">
          Open the agent again from your agents list to continue.
        </Text>
      </Stack>
    </Flex>
  );
}

/** A thread id that is not the person's (or no longer exists): never anyone else's data. */
export function ThreadNotFound({ onNew }: { onNew: () => void }) {
  return (
    <Flex h="full" align="center" justify="center" p="6" data-testid="thread-not-found">
      <Stack textAlign="center" gap="3" maxW="sm" role="status">
        <Text fontWeight="semibold">Conversation not found</Text>
        <Text color="fg.muted" fontSize="sm">
          It may have been deleted, or it belongs to another agent or person.
        </Text>
        <Button size="sm" alignSelf="center" onClick={onNew}>
          Start a new chat
        </Button>
      </Stack>
    </Flex>
  );
}
