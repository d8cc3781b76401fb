import { useChat } from '@ai-sdk/react';
import { Alert, Badge, Box, Button, HStack, Stack, Text, Textarea } from '@chakra-ui/react';
import {
  chatDataPartSchemas,
  chatMessageMetadataSchema,
  type CadreUIMessage,
  type ChatDataParts,
  type ChatSessionInfo,
} from '@cadre/contract';
import { DefaultChatTransport } from 'ai';
import { AgentAvatar, useInView } from '@cadre/ui';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { CHAT_PAGE_SIZE, toUiMessages, type ChatApi } from '../lib/api';
import { authHeaders, credentialsFor } from '../lib/endpoint';
import { describeProblem, refusalOf, type ChatProblem } from '../lib/errors';
import { AnswerFooter, textOfMessage } from './answer-footer';
import { Citations } from './citations';
import { AnswerRating } from './answer-rating';
import { Composer } from './composer';
import { MessageMarkdown } from './message-markdown';
import { isToolCallPart, ToolStep, type ApprovalDecision } from './tool-step';

/** A request from the agent to call a function of the host page (copilot only). */
export type HostFunctionCall = ChatDataParts['call-fn'];

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

/**
 * A tool call of `message` the user has just approved or denied (`addToolApprovalResponse`), whose
 * decision has not reached the server yet.
 */
function decisionIn(message: CadreUIMessage | undefined) {
  for (const part of message?.role === 'assistant' ? message.parts : []) {
    if (isToolCallPart(part) && part.state === 'approval-responded' && part.approval?.id) {
      return {
        approvalId: part.approval.id,
        approved: part.approval.approved === true,
        toolCallId: part.toolCallId,
      };
    }
  }
  return undefined;
}

/** The thread's newest page as the server has it now, after the earlier messages already shown. */
function withNewest(shown: CadreUIMessage[], newest: CadreUIMessage[]): CadreUIMessage[] {
  const start = newest[0] ? shown.findIndex((m) => m.id === newest[0]!.id) : -1;
  return [...(start > 0 ? shown.slice(0, start) : []), ...newest];
}

export function Conversation({
  api,
  session,
  threadId,
  initialMessages,
  olderCursor = null,
  onTurnFinished,
  onCallFunction,
}: ConversationProps) {
  const endpoint = api.endpoint;
  const callFunctionRef = useRef(onCallFunction);
  const finishedRef = useRef(onTurnFinished);
  useEffect(() => {
    callFunctionRef.current = onCallFunction;
    finishedRef.current = onTurnFinished;
  });

  // Approvals answered with "Always allow for this agent" (sent as `alwaysAllow` with the approve).
  const [alwaysAllowed] = useState(() => new Set<string>());
  const transport = useMemo(
    () =>
      new DefaultChatTransport<CadreUIMessage>({
        api: `${endpoint.baseUrl}/chat`,
        headers: authHeaders(endpoint),
        credentials: credentialsFor(endpoint),
        prepareSendMessagesRequest: ({ id, messages, trigger, messageId }) => {
          // A decision goes to the stored approval's own route; the server runs the stored call once.
          const decision = decisionIn(messages.find((m) => m.id === messageId));
          if (decision) {
            const verb = decision.approved ? 'approve' : 'deny';
            const alwaysAllow = decision.approved && alwaysAllowed.has(decision.approvalId);
            return {
              api: `${endpoint.baseUrl}/approvals/${encodeURIComponent(decision.approvalId)}/${verb}`,
              body: { toolCallId: decision.toolCallId, ...(alwaysAllow ? { alwaysAllow } : {}) },
            };
          }
          // The server keeps the history; it reads only the last user message. The time zone makes
          // "tomorrow at 3pm" the person's own.
          const lastUser = [...messages].reverse().find((m) => m.role === 'user');
          const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
          return { body: { id, trigger, messageId, messages: lastUser ? [lastUser] : [], timeZone } };
        },
      }),
    [endpoint, alwaysAllowed],
  );

  const {
    messages,
    setMessages,
    sendMessage,
    regenerate,
    stop,
    status,
    error,
    clearError,
    addToolApprovalResponse,
  } = useChat<CadreUIMessage>({
    id: threadId,
    messages: initialMessages,
    transport,
    throttle: 30,
    messageMetadataSchema: chatMessageMetadataSchema,
    dataPartSchemas: chatDataPartSchemas,
    // Each decision is sent as soon as it is made (the continuation streams into the same message).
    sendAutomaticallyWhen: ({ messages: current }) => decisionIn(current.at(-1)) !== undefined,
    onData: (part) => {
      if (part.type !== 'data-call-fn') return;
      const call = part.data;
      const run = callFunctionRef.current;
      if (!run) return;
      void run(call)
        .then((result) => api.sendFunctionResult(call.callId, result))
        .catch(() => api.sendFunctionResult(call.callId, { error: 'The page could not run this function.' }))
        .catch(() => undefined);
    },
    onFinish: ({ message, isError }) => {
      // A refused decision (expired, already decided, no longer attached) shows the server's state.
      if (isError && decisionIn(message)) {
        void api
          .messages(threadId, { limit: CHAT_PAGE_SIZE })
          .then((loaded) => setMessages((shown) => withNewest(shown, toUiMessages(loaded.messages))))
          .catch(() => undefined);
      }
      finishedRef.current?.();
    },
  });

  const [editing, setEditing] = useState<string | null>(null);
  const busy = status === 'submitted' || status === 'streaming';

  const bottomRef = useRef<HTMLDivElement>(null);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const topRef = useRef<HTMLDivElement>(null);
  // Earlier messages come in above what is read: the distance from the bottom is kept, so the
  // message in view stays in place; any other change (a turn, a streamed token) shows the end.
  const keptFromBottom = useRef<number | null>(null);
  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (keptFromBottom.current !== null && scroller) {
      scroller.scrollTop = scroller.scrollHeight - keptFromBottom.current;
      keptFromBottom.current = null;
    } else bottomRef.current?.scrollIntoView?.({ block: 'end' });
  }, [messages]);

  const [older, setOlder] = useState({ cursor: olderCursor, loading: false, failed: false });
  const loadEarlier = async () => {
    const { cursor, loading } = older;
    if (cursor === null || loading) return;
    setOlder({ cursor, loading: true, failed: false });
    try {
      const page = await api.messages(threadId, { limit: CHAT_PAGE_SIZE, cursor });
      const scroller = scrollerRef.current;
      keptFromBottom.current = scroller ? scroller.scrollHeight - scroller.scrollTop : null;
      setMessages((shown) => {
        const known = new Set(shown.map((m) => m.id));
        return [...toUiMessages(page.messages).filter((m) => !known.has(m.id)), ...shown];
      });
      setOlder({ cursor: page.nextCursor ?? null, loading: false, failed: false });
    } catch {
      setOlder({ cursor, loading: false, failed: true });
    }
  };
  useInView(topRef, () => void loadEarlier(), older.cursor !== null && !older.loading && !older.failed, {
    root: scrollerRef,
  });

  const send = (text: string) => {
    clearError();
    void sendMessage({ text });
  };

  const onStop = () => {
    void api.stop(threadId).catch(() => undefined);
    void stop();
  };

  // Esc stops a running answer wherever the focus is in the frame.
  const stopRef = useRef(onStop);
  useEffect(() => {
    stopRef.current = onStop;
  });
  useEffect(() => {
    if (!busy) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') stopRef.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [busy]);

  const decide = (approvalId: string, decision: ApprovalDecision) => {
    clearError();
    if (decision === 'always') alwaysAllowed.add(approvalId);
    void addToolApprovalResponse({ id: approvalId, approved: decision !== 'deny' });
  };

  const last = messages.at(-1);
  const lastMeta = last?.role === 'assistant' ? last.metadata : undefined;
  // A run error arrives as a `data-error` part {category, message} (stored with the message too).
  const lastRunError =
    last?.role === 'assistant' ? last.parts.findLast((p) => p.type === 'data-error') : undefined;
  const problem: ChatProblem | null = lastRunError
    ? describeProblem({ category: lastRunError.data.category, message: lastRunError.data.message })
    : error
      ? describeProblem({ category: lastMeta?.errorCategory, ...refusalOf(error) })
      : lastMeta?.errorCategory && status === 'ready'
        ? describeProblem({ category: lastMeta.errorCategory })
        : null;
  const lastUserIndex = messages.findLastIndex((m) => m.role === 'user');

  const retry = () => {
    clearError();
    // Re-runs the last user message (the server drops the failed answer first).
    void regenerate();
  };

  return (
    <Stack h="full" gap="0" minH="0">
      <Box flex="1" overflowY="auto" px={{ base: '3', md: '6' }} py="4" minH="0" ref={scrollerRef}>
        <Stack gap="4" maxW="3xl" mx="auto">
          {older.cursor !== null && (
            <Stack ref={topRef} align="center" gap="1" data-testid="earlier-messages">
              {older.failed && (
                <Text fontSize="sm" color="fg.error" role="alert">
                  Earlier messages could not be loaded.
                </Text>
              )}
              <Button size="xs" variant="outline" loading={older.loading} onClick={() => void loadEarlier()}>
                {older.failed ? 'Try again' : 'Load earlier messages'}
              </Button>
            </Stack>
          )}
          {messages.length === 0 && <EmptyState session={session} onPick={send} />}
          {messages.map((message, index) =>
            message.role === 'user' ? (
              <Box key={message.id} alignSelf="flex-end" maxW="85%" data-testid="user-message">
                {editing !== null && index === lastUserIndex ? (
                  <EditBox
                    initial={editing}
                    onCancel={() => setEditing(null)}
                    onSave={(text) => {
                      setEditing(null);
                      clearError();
                      void sendMessage({ text, messageId: message.id });
                    }}
                  />
                ) : (
                  <>
                    <Box bg="brand.subtle" borderRadius="lg" px="3" py="2" whiteSpace="pre-wrap">
                      <MessageMarkdown text={textOfMessage(message)} />
                    </Box>
                    {index === lastUserIndex && !busy && (
                      <HStack justify="end">
                        <Button size="2xs" variant="ghost" onClick={() => setEditing(textOfMessage(message))}>
                          Edit
                        </Button>
                      </HStack>
                    )}
                  </>
                )}
              </Box>
            ) : (
              <Box key={message.id} data-testid="assistant-message">
                {message.parts.map((part, i) =>
                  part.type === 'text' ? (
                    <MessageMarkdown key={i} text={part.text} />
                  ) : part.type === 'data-notice' ? (
                    <Text key={i} color="fg.warning" fontSize="sm" role="note" data-testid="model-notice">
                      {part.data.message}
                    </Text>
                  ) : part.type === 'data-error' && index !== messages.length - 1 ? (
                    <Text key={i} color="fg.error" fontSize="sm" role="note">
                      {part.data.message || 'This answer ended with an error.'}
                    </Text>
                  ) : isToolCallPart(part) ? (
                    <ToolStep
                      key={part.toolCallId}
                      part={part}
                      endpoint={endpoint}
                      onDecide={busy ? undefined : (id, d) => decide(id, d)}
                    />
                  ) : null,
                )}
                <Citations message={message} />
                {message.metadata?.status === 'interrupted' && !(busy && index === messages.length - 1) && (
                  <Text color="fg.muted" fontSize="sm" role="note" data-testid="interrupted-note">
                    This answer was interrupted before it finished; what it said so far is kept.
                  </Text>
                )}
                {!(busy && index === messages.length - 1) && (
                  <AnswerFooter message={message}>
                    <AnswerRating api={api} messageId={message.id} />
                    {index === messages.length - 1 && (
                      <Button size="2xs" variant="ghost" onClick={() => void regenerate()}>
                        {message.metadata?.status === 'interrupted' ? 'Retry' : 'Regenerate'}
                      </Button>
                    )}
                  </AnswerFooter>
                )}
              </Box>
            ),
          )}
          {status === 'submitted' && (
            <Text color="fg.muted" fontSize="sm" aria-live="polite">
              Thinking…
            </Text>
          )}
          {problem && (
            <Alert.Root status="error" data-testid="chat-error">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>{problem.title}</Alert.Title>
                <Alert.Description>{problem.detail}</Alert.Description>
              </Alert.Content>
              <Button size="sm" variant="outline" onClick={retry} disabled={busy || lastUserIndex < 0}>
                Retry
              </Button>
            </Alert.Root>
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

function EditBox({
  initial,
  onSave,
  onCancel,
}: {
  initial: string;
  onSave: (text: string) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState(initial);
  return (
    <Stack gap="2" minW={{ base: '60vw', md: 'md' }}>
      <Textarea
        aria-label="Edit message"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onCancel();
        }}
        autoFocus
        autoresize
      />
      <HStack justify="end">
        <Button size="xs" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button
          size="xs"
          bg="brand.solid"
          color="brand.contrast"
          disabled={!text.trim()}
          onClick={() => onSave(text.trim())}
        >
          Save and resend
        </Button>
      </HStack>
    </Stack>
  );
}

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

export const OFFLINE_LABEL = (session: ChatSessionInfo) =>
  session.model.label ?? 'Offline model — configure an LLM provider for full answers';
