import type { ChatSessionInfo } from '@cadre/contract';
import { useCallback, useEffect, useState } from 'react';
import type { ChatApi } from '../lib/api';
import { ChatHttpError } from '../lib/chat-client';

export type SessionState =
  | { kind: 'loading' }
  | { kind: 'ready'; session: ChatSessionInfo }
  | { kind: 'ended' }
  | { kind: 'failed'; message: string };

/** The chat service says the session is over (expired, signed out): the frame shows that it ended. */
const endsSession = (e: unknown) => e instanceof ChatHttpError && e.code === 'unauthorized';

/**
 * Where the chat session stands, and what a failed call does to it: one that finds the session
 * over ends the chat; any other is said above the conversation (`problem`) until a refresh works.
 */
export function useChatSession() {
  const [state, setState] = useState<SessionState>({ kind: 'loading' });
  const [problem, setProblem] = useState<string | null>(null);

  const handleFailure = useCallback((e: unknown) => {
    if (endsSession(e)) setState({ kind: 'ended' });
    else setProblem(e instanceof Error ? e.message : 'The chat service could not be reached.');
  }, []);
  /** A call whose failure is shown where it was made: only an ended session is the chat's business. */
  const endIfOver = useCallback((e: unknown) => {
    if (endsSession(e)) setState({ kind: 'ended' });
  }, []);
  const clearProblem = useCallback(() => setProblem(null), []);

  return { state, setState, problem, clearProblem, handleFailure, endIfOver };
}

export type ChatSession = ReturnType<typeof useChatSession>;

/**
 * Loads the session once per endpoint, then `start` lists and opens what the frame shows first;
 * `isCancelled` says the endpoint changed meanwhile. Either failing means the chat could not load.
 */
export function useSessionStart(
  api: ChatApi,
  { setState }: ChatSession,
  start: (session: ChatSessionInfo, isCancelled: () => boolean) => Promise<void>,
) {
  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        const session = await api.session();
        if (cancelled) return;
        setState({ kind: 'ready', session });
        await start(session, () => cancelled);
      } catch (e) {
        if (cancelled) return;
        if (endsSession(e)) setState({ kind: 'ended' });
        else setState({ kind: 'failed', message: e instanceof Error ? e.message : 'Unknown error' });
      }
    })();
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- load once per endpoint
  }, [api]);
}
