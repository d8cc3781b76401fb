import { Box, Stack, Text } from '@chakra-ui/react';
import type { CadreUIMessage, ChatSessionInfo } from '@cadre/contract';
import { useState } from 'react';
import type { ChatApi } from '../lib/api';
import { textOfMessage } from './answer-footer';
import { AssistantMessage } from './assistant-message';
import { ChatProblemAlert, problemOf } from './chat-problem';
import { Composer } from './composer';
import { EarlierMessages, useEarlierMessages } from './earlier-messages';
import { EmptyState } from './empty-state';
import { useConversationChat, type HostFunctionCall } from './use-conversation-chat';
import { useEscapeToStop } from './use-escape-to-stop';
import { UserMessage } from './user-message';

export interface ConversationProps {
  api: ChatApi;
  session: ChatSessionInfo;
  threadId: string;
  initialMessages: CadreUIMessage[];
  /** The cursor of the messages before `initialMessages` (null or absent: they start the thread). */
  olderCursor?: string | null;
  /** A turn ended (the thread list may have a new or renamed thread). */
  onTurnFinished?: () => void;
  /** Copilot: runs a host-page function and resolves with its result. */
  onCallFunction?: (call: HostFunctionCall) => Promise<unknown>;
}

/** The last answer, cut short by Stop (whose final chunk the aborted stream never read). */
function markLastInterrupted(messages: CadreUIMessage[]): CadreUIMessage[] {
  const last = messages.at(-1);
  if (last?.role !== 'assistant' || (last.metadata?.status && last.metadata.status !== 'streaming'))
    return messages;
  return [...messages.slice(0, -1), { ...last, metadata: { ...last.metadata, status: 'interrupted' } }];
}

/** One thread: its messages, earlier ones loading above, what went wrong, and the composer. */
export function Conversation({
  api,
  session,
  threadId,
  initialMessages,
  olderCursor = null,
  onTurnFinished,
  onCallFunction,
}: ConversationProps) {
  const chat = useConversationChat({ api, threadId, initialMessages, onTurnFinished, onCallFunction });
  const { messages, setMessages, sendMessage, regenerate, status, clearError, busy } = chat;
  const earlier = useEarlierMessages({ api, threadId, olderCursor, messages, setMessages });
  const { scrollerRef, bottomRef } = earlier;
  const [editing, setEditing] = useState<string | null>(null);

  const send = (text: string) => {
    clearError();
    void sendMessage({ text });
  };
  const onStop = () => {
    void chat.stop();
    // Once the thread is free the answer shows as the server keeps it: interrupted, with Retry.
    void api
      .stop(threadId)
      .then(({ outcome }) => {
        if (outcome !== 'idle') setMessages((shown) => markLastInterrupted(shown));
      })
      .catch(() => undefined);
  };
  useEscapeToStop(busy, onStop);
  const retry = () => {
    clearError();
    // Re-runs the last user message (the server drops the failed answer first).
    void regenerate();
  };

  const problem = problemOf({ messages, error: chat.error, status });
  const lastUserIndex = messages.findLastIndex((m) => m.role === 'user');
  const lastIndex = messages.length - 1;

  return (
    <Stack h="full" gap="0" minH="0">
      <Box flex="1" overflowY="auto" px={{ base: '3', md: '6' }} py="4" minH="0" ref={scrollerRef}>
        <Stack gap="4" maxW="3xl" mx="auto">
          <EarlierMessages earlier={earlier} />
          {messages.length === 0 && <EmptyState session={session} onPick={send} />}
          {messages.map((message, index) =>
            message.role === 'user' ? (
              <UserMessage
                key={message.id}
                message={message}
                editing={index === lastUserIndex ? editing : null}
                canEdit={index === lastUserIndex && !busy}
                onEdit={setEditing}
                onCancelEdit={() => setEditing(null)}
                onResend={(text) => {
                  setEditing(null);
                  clearError();
                  void sendMessage({ text, messageId: message.id });
                }}
              />
            ) : (
              <AssistantMessage
                key={message.id}
                api={api}
                message={message}
                isLast={index === lastIndex}
                streaming={busy && index === lastIndex}
                onDecide={busy ? undefined : (id, d) => chat.decide(id, d)}
                onRegenerate={() => void regenerate()}
              />
            ),
          )}
          {status === 'submitted' && (
            <Text color="fg.muted" fontSize="sm" aria-live="polite">
              Thinking…
            </Text>
          )}
          {problem && (
            <ChatProblemAlert problem={problem} onRetry={retry} retryDisabled={busy || lastUserIndex < 0} />
          )}
          <div ref={bottomRef} />
        </Stack>
      </Box>
      <Box borderTopWidth="1px" px={{ base: '3', md: '6' }} py="3">
        <Box maxW="3xl" mx="auto">
          <Composer
            busy={busy}
            onSend={send}
            onStop={onStop}
            onEditLast={
              lastUserIndex >= 0 && !busy
                ? () => setEditing(textOfMessage(messages[lastUserIndex]!))
                : undefined
            }
          />
        </Box>
      </Box>
    </Stack>
  );
}
