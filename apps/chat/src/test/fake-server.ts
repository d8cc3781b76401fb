import type { ChatSessionInfo } from '@cadre/contract';
import { vi } from 'vitest';

/** A fetch stub that answers like the chat service, and records what the frame sent. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

export const session = (over: Partial<ChatSessionInfo['model']> = {}): ChatSessionInfo => ({
  user: { id: 1 },
  agent: {
    id: 7,
    name: 'Ledger Helper',
    description: 'Adds up numbers and keeps notes.',
    suggestedPrompts: ['Add 2 and 3', 'What can you do?'],
    tools: [{ name: 'calculator_add', displayName: 'Add', description: 'Adds', effect: 'read' }],
  },
  model: {
    id: 'offline',
    provider: 'offline',
    modelId: 'cadre-offline',
    offline: true,
    label: 'Offline model — configure an LLM provider for full answers',
    configured: true,
    ...over,
  },
  via: 'cookie',
});

/** A thread as `GET /threads` lists it. */
export const threadRow = (id: string, name: string, at = '2026-01-01T00:00:00.000Z') => ({
  id,
  name,
  origin: 'chat',
  createdAt: at,
  updatedAt: at,
});

/**
 * A thread as `GET /threads/:id/messages` answers it: the person's question (at the thread's first
 * second) and the answer after it, with `parts` and its run's `status`.
 */
export const storedExchange = (
  thread: { id: string; name: string },
  question: string,
  answer: { parts: unknown[]; status: string },
) => ({
  thread: threadRow(thread.id, thread.name),
  messages: [
    {
      id: 'u-1',
      role: 'user',
      parts: [{ type: 'text', text: question }],
      metadata: { status: 'complete', createdAt: '2026-01-01T00:00:00.000Z' },
    },
    {
      id: 'a-1',
      role: 'assistant',
      parts: [{ type: 'step-start' }, ...answer.parts],
      metadata: { status: answer.status, createdAt: '2026-01-01T00:00:01.000Z' },
    },
  ],
  approvals: [],
});

export const sse = (chunks: unknown[]) =>
  new Response(chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n', {
    headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' },
  });

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export function installFakeServer(
  routes: Record<string, (request: RecordedRequest) => Response | Promise<Response>>,
) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    // The generated client sends a Request; the AI SDK's transport a URL and its options.
    const sent = input instanceof Request ? input : undefined;
    const address = new URL(sent?.url ?? String(input), window.location.href);
    // Recorded as the frame wrote it: a path on the page's own origin, else the whole URL.
    const url =
      address.origin === window.location.origin ? `${address.pathname}${address.search}` : address.href;
    const method = (sent?.method ?? init?.method ?? 'GET').toUpperCase();
    const headers = Object.fromEntries(new Headers(sent?.headers ?? init?.headers).entries());
    const text = sent ? await sent.clone().text() : typeof init?.body === 'string' ? init.body : '';
    const body = text ? (JSON.parse(text) as unknown) : undefined;
    const request = { method, url, headers, body, credentials: sent?.credentials ?? init?.credentials };
    requests.push(request);
    const handler = routes[`${method} ${address.pathname}`];
    return handler ? handler(request) : json({ detail: 'Not Found', code: 'not_found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { requests };
}
