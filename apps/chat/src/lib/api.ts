import type { CadreUIMessage } from '@cadre/contract';
import {
  chatClearRating,
  chatDeleteThread,
  chatFunctionResult,
  chatListThreads,
  chatRateMessage,
  chatRenameThread,
  chatSession,
  chatStop,
  chatThreadMessages,
  createChatClient,
  type ChatApproveData,
  type ChatDenyData,
  type ChatRejoinData,
  type ChatStopResponse,
  type ChatThreadMessagesResponse,
  type ChatTurnData,
} from './chat-client';
import { authHeaders, credentialsFor, type ChatEndpoint } from './endpoint';

export type ThreadMessages = ChatThreadMessagesResponse;

/** How many threads, or messages of a thread, the frame loads at a time. */
export const CHAT_PAGE_SIZE = 50;

/** `?limit=&cursor=` of a page (contract: chatThreadListQuerySchema, chatThreadMessagesQuerySchema). */
export interface ChatPage {
  limit: number;
  cursor?: string;
}

/**
 * The streaming routes, which the AI SDK's transport calls itself (their answer is a UI message
 * stream): their paths are the generated client's, so a renamed route is a type error here too.
 */
const TURN_PATH: ChatTurnData['url'] = '/chat';
/** Where a reload or another tab rejoins a thread's answer still being written (AI SDK resume). */
const REJOIN_PATH: ChatRejoinData['url'] = '/chat/{threadId}/stream';
const DECISION_PATHS: { approve: ChatApproveData['url']; deny: ChatDenyData['url'] } = {
  approve: '/approvals/{approvalId}/approve',
  deny: '/approvals/{approvalId}/deny',
};

/** The chat service's endpoints, at the endpoint's mount and with its credentials. */
export function createChatApi(endpoint: ChatEndpoint) {
  const client = createChatClient({
    baseUrl: endpoint.baseUrl,
    headers: authHeaders(endpoint),
    credentials: credentialsFor(endpoint),
  });
  const thread = (id: string) => ({ client, path: { threadId: id } });

  return {
    endpoint,
    /** Where a turn is sent; the answer streams back. */
    turnUrl: `${endpoint.baseUrl}${TURN_PATH}`,
    /** Where the thread's answer still being written is rejoined (204: none is). */
    rejoinUrl: (threadId: string) =>
      `${endpoint.baseUrl}${REJOIN_PATH.replace('{threadId}', encodeURIComponent(threadId))}`,
    /** Where a decision on a pending tool call is sent; the answer goes on as a stream. */
    decisionUrl: (approvalId: string, decision: keyof typeof DECISION_PATHS) =>
      `${endpoint.baseUrl}${DECISION_PATHS[decision].replace('{approvalId}', encodeURIComponent(approvalId))}`,
    session: () => chatSession({ client }),
    /** A page of this agent's threads, newest first, and the cursor of the next (older) page. */
    listThreads: async (page: ChatPage) => {
      const list = await chatListThreads({ client, query: page });
      return { threads: list.data, nextCursor: list.nextCursor ?? null };
    },
    /** Threads whose name or messages hold `query`, newest first. */
    searchThreads: async (query: string) => (await chatListThreads({ client, query: { q: query } })).data,
    renameThread: (id: string, name: string) => chatRenameThread({ ...thread(id), body: { name } }),
    deleteThread: async (id: string): Promise<void> => {
      await chatDeleteThread(thread(id));
    },
    /** The thread's newest `page.limit` messages before `page.cursor` (oldest first), or all of them. */
    messages: (id: string, page?: ChatPage) => chatThreadMessages({ ...thread(id), query: page }),
    /** Thumbs up or down on an answer, with an optional comment; null takes the rating back. */
    rate: async (messageId: string, rating: 'up' | 'down' | null, comment?: string): Promise<void> => {
      const path = { messageId };
      if (rating === null) await chatClearRating({ client, path });
      else await chatRateMessage({ client, path, body: { rating, comment: comment?.trim() || null } });
    },
    /** Stops the thread's answer; resolves once the thread is free, saying what happened. */
    stop: (id: string): Promise<ChatStopResponse> => chatStop(thread(id)),
    /** Returns a host-page function's result to the run that asked for it (copilot only). */
    sendFunctionResult: async (callId: string, result: unknown): Promise<void> => {
      await chatFunctionResult({ client, path: { callId }, body: { result: result ?? null } });
    },
  };
}

export type ChatApi = ReturnType<typeof createChatApi>;

/** Stored messages are AI SDK UI messages already (the contract checks only their outline). */
export const toUiMessages = (messages: ThreadMessages['messages']): CadreUIMessage[] =>
  messages as unknown as CadreUIMessage[];
