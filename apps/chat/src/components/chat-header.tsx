import { Badge, Button, HStack, Text } from '@chakra-ui/react';
import type { ChatSessionInfo } from '@cadre/contract';
import { AgentAvatar } from '@cadre/ui';
import { OFFLINE_LABEL } from './empty-state';

/**
 * Two speech bubbles: the conversations, not a menu. On a phone the app around the frame has the
 * page's menu (☰) right above this header, and two alike buttons read as two menus.
 */
function ConversationsIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="18"
      height="18"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M3 4h12v8H8l-3 3v-3H3z" />
      <path d="M18 8h3v8h-2v3l-3-3h-6v-1" />
    </svg>
  );
}

/** The chat's agent and the model it answers with, and the button that shows the threads' drawer. */
export function ChatHeader({
  session,
  drawerOnly,
  onShowConversations,
}: {
  session: ChatSessionInfo;
  drawerOnly: boolean;
  onShowConversations: () => void;
}) {
  return (
    <HStack px="3" py="2" borderBottomWidth="1px" gap="2" minH="12">
      <Button
        size="sm"
        variant="ghost"
        display={drawerOnly ? 'inline-flex' : { base: 'inline-flex', md: 'none' }}
        onClick={onShowConversations}
        aria-label="Show conversations"
      >
        <ConversationsIcon />
      </Button>
      <AgentAvatar agent={session.agent} size="sm" />
      <Text fontWeight="semibold" truncate flex="1" minW="0">
        {session.agent.name}
      </Text>
      {/* Short here; the empty chat says the whole sentence, and the badge's title does. */}
      {session.model.offline && (
        <Badge
          colorPalette="orange"
          flexShrink={0}
          data-testid="offline-label"
          title={OFFLINE_LABEL(session)}
        >
          Offline model
        </Badge>
      )}
      {!session.model.offline && !session.model.configured && (
        <Badge colorPalette="red">No model configured</Badge>
      )}
    </HStack>
  );
}
