import { useChat } from '@ai-sdk/react';
import {
  chatDataPartSchemas,
  chatMessageMetadataSchema,
  type CadreUIMessage,
  newIdempotencyKey,
  type ChatDataParts,
} from '@cadre/contract';
import { DefaultChatTransport } from 'ai';
import { useEffect, useMemo, useRef, useState } from 'react';
import { CHAT_PAGE_SIZE, toUiMessages, type ChatApi } from '../lib/api';
import { authHeaders, credentialsFor } from '../lib/endpoint';
import { isToolCallPart, type ApprovalDecision } from './tool-step';

/** A request from the agent to call a function of the host page (copilot only). */
export type HostFunctionCall = ChatDataParts['call-fn'];

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

/**
 * The `Idempotency-Key` of a turn, so a proxy's retry of its request is not stored twice: a new
 * message's own id (made once when it is sent); an edit or a regenerate, a key of its own.
 */
function turnKey(trigger: string, messageId: string | undefined, lastUserId: string | undefined) {
  const plainSend = trigger === 'submit-message' && messageId === undefined && lastUserId !== undefined;
  return plainSend ? `message-${lastUserId}` : newIdempotencyKey();
}

/** The thread's newest page as the server has it now, after the earlier messages already shown. */
function withNewest(shown: CadreUIMessage[], newest: CadreUIMessage[]): CadreUIMessage[] {
  const start = newest[0] ? shown.findIndex((m) => m.id === newest[0]!.id) : -1;
  return [...(start > 0 ? shown.slice(0, start) : []), ...newest];
}

/**
 * On load, an answer still being written (a reload, another tab or device) is rejoined: the server
 * replays it from its first word and it goes on to its end, replacing the snapshot loaded. Then the
 * thread is read again, for an answer that ended before the rejoin (the server answered 204).
 */
function useRejoinRunningAnswer(
  api: ChatApi,
  threadId: string,
  initialMessages: CadreUIMessage[],
  chat: Pick<ReturnType<typeof useChat<CadreUIMessage>>, 'resumeStream' | 'setMessages'>,
) {
  const rejoined = useRef(false);
  useEffect(() => {
    if (rejoined.current) return;
    rejoined.current = true;
    const last = initialMessages.at(-1);
    if (last?.role !== 'assistant' || last.metadata?.status !== 'streaming') return;
    void chat
      .resumeStream()
      .then(() => api.messages(threadId, { limit: CHAT_PAGE_SIZE }))
      .then((loaded) => chat.setMessages((shown) => withNewest(shown, toUiMessages(loaded.messages))))
      .catch(() => undefined);
  }, [api, threadId, initialMessages, chat]);
}

/**
 * One thread's turns with the agent (the AI SDK's `useChat`): a message goes to the chat route and
 * the answer streams back; a decision on a pending tool call goes to that approval's own route as
 * soon as it is made; a host-page function the agent calls runs through `onCallFunction`.
 */
export function useConversationChat({
  api,
  threadId,
  initialMessages,
  onTurnFinished,
  onCallFunction,
}: {
  api: ChatApi;
  threadId: string;
  initialMessages: CadreUIMessage[];
  onTurnFinished?: () => void;
  onCallFunction?: (call: HostFunctionCall) => Promise<unknown>;
}) {
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
        api: api.turnUrl,
        headers: authHeaders(endpoint),
        credentials: credentialsFor(endpoint),
        prepareReconnectToStreamRequest: ({ id }) => ({ api: api.rejoinUrl(id) }),
        prepareSendMessagesRequest: ({ id, messages, trigger, messageId, headers }) => {
          // A decision goes to the stored approval's own route; the server runs the stored call once.
          const decision = decisionIn(messages.find((m) => m.id === messageId));
          if (decision) {
            const verb = decision.approved ? 'approve' : 'deny';
            const alwaysAllow = decision.approved && alwaysAllowed.has(decision.approvalId);
            return {
              api: api.decisionUrl(decision.approvalId, verb),
              body: { toolCallId: decision.toolCallId, ...(alwaysAllow ? { alwaysAllow } : {}) },
            };
          }
          // The server keeps the history; it reads only the last user message. The time zone makes
          // "tomorrow at 3pm" the person's own.
          const lastUser = [...messages].reverse().find((m) => m.role === 'user');
          const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
          return {
            body: { id, trigger, messageId, messages: lastUser ? [lastUser] : [], timeZone },
            // Headers given here replace the transport's own (the session's): both are sent.
            headers: { ...headers, 'idempotency-key': turnKey(trigger, messageId, lastUser?.id) },
          };
        },
      }),
    [api, endpoint, alwaysAllowed],
  );

  const chat = useChat<CadreUIMessage>({
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
          .then((loaded) => chat.setMessages((shown) => withNewest(shown, toUiMessages(loaded.messages))))
          .catch(() => undefined);
      }
      finishedRef.current?.();
    },
  });

  useRejoinRunningAnswer(api, threadId, initialMessages, chat);

  const { clearError, addToolApprovalResponse } = chat;
  const decide = (approvalId: string, decision: ApprovalDecision) => {
    clearError();
    if (decision === 'always') alwaysAllowed.add(approvalId);
    void addToolApprovalResponse({ id: approvalId, approved: decision !== 'deny' });
  };

  return { ...chat, decide, busy: chat.status === 'submitted' || chat.status === 'streaming' };
}
