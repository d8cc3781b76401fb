import { Badge, Button, Stack, Text } from '@chakra-ui/react';
import type { ChatSessionInfo } from '@cadre/contract';
import { AgentAvatar } from '@cadre/ui';

export const OFFLINE_LABEL = (session: ChatSessionInfo) =>
  session.model.label ?? 'Offline model — configure an LLM provider for full answers';

/** A chat with no messages yet: the agent, what it is for, and the prompts it suggests. */
export function EmptyState({
  session,
  onPick,
}: {
  session: ChatSessionInfo;
  onPick: (text: string) => void;
}) {
  return (
    <Stack gap="3" py="8" textAlign="center" align="center" data-testid="empty-state">
      <AgentAvatar agent={session.agent} size="xl" />
      <Text fontSize="xl" fontWeight="semibold">
        {session.agent.name}
      </Text>
      {session.agent.description && (
        <Text color="fg.muted" maxW="lg">
          {session.agent.description}
        </Text>
      )}
      {/* Wraps on a narrow frame (a phone, the copilot panel) instead of running to its edges. */}
      {session.model.offline && (
        <Badge
          colorPalette="orange"
          whiteSpace="normal"
          textAlign="center"
          maxW="full"
          data-testid="offline-notice"
        >
          {OFFLINE_LABEL(session)}
        </Badge>
      )}
      <Stack gap="2" w="full" maxW="md" pt="2">
        {session.agent.suggestedPrompts.map((prompt) => (
          <Button
            key={prompt}
            variant="outline"
            size="sm"
            whiteSpace="normal"
            h="auto"
            py="2"
            textAlign="start"
            justifyContent="flex-start"
            onClick={() => onPick(prompt)}
          >
            {prompt}
          </Button>
        ))}
      </Stack>
    </Stack>
  );
}
