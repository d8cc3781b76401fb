import { errorCodeOf, type ErrorCode } from '@cadre/contract';
import { createClient, createConfig, type Client } from '../client/client';
import { retryingOutages } from './outage';

/**
 * The chat service's client: its SDK generated from the server's OpenAPI document (src/client, by
 * `npm run generate:client`), and a client of one chat mount that every SDK call takes. The web
 * app signs in to the chat with it too (`@cadre/chat/client`).
 */
export * from '../client';

/**
 * An error answer of the chat service: its status, the server's `detail` as the message, and its
 * `code` (the contract's error codes), which is what the frame branches on.
 */
export class ChatHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: ErrorCode,
  ) {
    super(message);
  }
}

/** The one place an error answer becomes a `ChatHttpError`; `body` is its JSON, or its text. */
function chatHttpError(status: number, body: unknown): ChatHttpError {
  const detail = (body as { detail?: unknown } | null)?.detail;
  return new ChatHttpError(
    status,
    typeof detail === 'string' ? detail : `The chat service answered ${status}.`,
    errorCodeOf(body),
  );
}

export interface ChatClientSettings {
  /** The mount: `/chainlit`, `/demos`, or `https://host/chainlit` (a trailing slash is dropped). */
  baseUrl: string;
  /** How requests are authenticated (see lib/endpoint.ts); an SDK call may add its own. */
  headers?: Record<string, string>;
  credentials: RequestCredentials;
  fetch?: typeof fetch;
}

/**
 * A client of one chat mount: every error answer is thrown as a `ChatHttpError`, and reads wait
 * out an outage of Cadre or its database (lib/outage.ts).
 */
export function createChatClient(settings: ChatClientSettings): Client {
  const baseUrl = settings.baseUrl.replace(/\/+$/, '');
  // Looked up at each call, not now: a test may replace the global fetch after the client exists.
  const fetchImpl = retryingOutages((input, init) => (settings.fetch ?? fetch)(input, init));
  const client = createClient(createConfig({ ...settings, baseUrl, throwOnError: true, fetch: fetchImpl }));
  // Without a response (the network failed, the request was aborted) the error stays what it was.
  client.interceptors.error.use((body, response) => (response ? chatHttpError(response.status, body) : body));
  return client;
}
