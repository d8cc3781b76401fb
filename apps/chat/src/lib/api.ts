import {
  chatFeedbackOutSchema,
  chatSessionInfoSchema,
  chatThreadListSchema,
  chatThreadMessagesSchema,
  chatThreadSchema,
  errorCodeOf,
  type CadreUIMessage,
  type ChatSessionInfo,
  type ChatThread,
  type ErrorCode,
} from '@cadre/contract';
import type { z } from 'zod';
import { authHeaders, credentialsFor, type ChatEndpoint } from './endpoint';

/** A refused request: the frame branches on its `code` (the contract's error codes). */
export class ChatHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: ErrorCode,
  ) {
    super(message);
  }
}

async function detailOf(response: Response): Promise<{ detail: string; code?: ErrorCode }> {
  try {
    const body = (await response.json()) as { detail?: unknown };
    if (typeof body.detail === 'string') return { detail: body.detail, code: errorCodeOf(body) };
  } catch {
    // not JSON
  }
  return { detail: `The chat service answered ${response.status}.` };
}

export type ThreadMessages = z.infer<typeof chatThreadMessagesSchema>;

/** How many threads, or messages of a thread, the frame loads at a time. */
export const CHAT_PAGE_SIZE = 50;

/** `?limit=&cursor=` of a page (contract: chatThreadListQuerySchema, chatThreadMessagesQuerySchema). */
export interface ChatPage {
  limit: number;
  cursor?: string;
}
const pageQuery = (page: ChatPage) =>
  new URLSearchParams({ limit: String(page.limit), ...(page.cursor && { cursor: page.cursor }) }).toString();

/** The chat service's JSON endpoints (declared in packages/contract/src/chat.ts). */
export function createChatApi(endpoint: ChatEndpoint) {
  async function send(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { ...authHeaders(endpoint) };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${endpoint.baseUrl}${path}`, {
      method,
      headers,
      credentials: credentialsFor(endpoint),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) {
      const { detail, code } = await detailOf(response);
      throw new ChatHttpError(response.status, detail, code);
    }
    return response;
  }
  const json = async <T>(schema: z.ZodType<T>, method: string, path: string, body?: unknown): Promise<T> =>
    schema.parse(await (await send(method, path, body)).json());

  return {
    endpoint,
    session: (): Promise<ChatSessionInfo> => json(chatSessionInfoSchema, 'GET', '/session'),
    /** A page of this agent's threads, newest first, and the cursor of the next (older) page. */
    listThreads: async (page: ChatPage): Promise<{ threads: ChatThread[]; nextCursor: string | null }> => {
      const list = await json(chatThreadListSchema, 'GET', `/threads?${pageQuery(page)}`);
      return { threads: list.data, nextCursor: list.nextCursor ?? null };
    },
    /** Threads whose name or messages hold `query`, newest first. */
    searchThreads: async (query: string): Promise<ChatThread[]> =>
      (await json(chatThreadListSchema, 'GET', `/threads?q=${encodeURIComponent(query)}`)).data,
    renameThread: (id: string, name: string): Promise<ChatThread> =>
      json(chatThreadSchema, 'PATCH', `/threads/${encodeURIComponent(id)}`, { name }),
    deleteThread: async (id: string): Promise<void> => {
      await send('DELETE', `/threads/${encodeURIComponent(id)}`);
    },
    /** The thread's newest `page.limit` messages before `page.cursor` (oldest first), or all of them. */
    messages: (id: string, page?: ChatPage): Promise<ThreadMessages> =>
      json(
        chatThreadMessagesSchema,
        'GET',
        `/threads/${encodeURIComponent(id)}/messages${page ? `?${pageQuery(page)}` : ''}`,
      ),
    /** Thumbs up or down on an answer, with an optional comment; null takes the rating back. */
    rate: async (messageId: string, rating: 'up' | 'down' | null, comment?: string): Promise<void> => {
      const path = `/messages/${encodeURIComponent(messageId)}/feedback`;
      if (rating === null) await send('DELETE', path);
      else await json(chatFeedbackOutSchema, 'PUT', path, { rating, comment: comment?.trim() || null });
    },
    stop: async (id: string): Promise<void> => {
      await send('POST', `/threads/${encodeURIComponent(id)}/stop`);
    },
    /** Returns a host-page function's result to the run that asked for it (copilot only). */
    sendFunctionResult: async (callId: string, result: unknown): Promise<void> => {
      await send('POST', `/fn-results/${encodeURIComponent(callId)}`, { result: result ?? null });
    },
  };
}

export type ChatApi = ReturnType<typeof createChatApi>;

/** Stored messages are AI SDK UI messages already (the contract checks only their outline). */
export const toUiMessages = (messages: ThreadMessages['messages']): CadreUIMessage[] =>
  messages as unknown as CadreUIMessage[];
