import type { CadreUIMessage, ChatSessionInfo } from '@cadre/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { CHAT_PAGE_SIZE, toUiMessages, type ChatApi } from '../lib/api';
import { ChatHttpError } from '../lib/chat-client';

export interface OpenThread {
  id: string;
  messages: CadreUIMessage[];
  /** Bumped to remount the conversation (a new chat or another thread). */
  key: number;
  /** False for a new chat until its first turn is stored. */
  saved: boolean;
  /** The thread asked for is gone or not this person's: the not-found state shows instead. */
  missing?: boolean;
  /** The cursor of the messages before those loaded; null when the thread's start is loaded. */
  olderCursor: string | null;
}

/** 'push' when the person picked the conversation, 'replace' when the frame did (see ChatAppProps). */
export type ThreadHistory = 'push' | 'replace';

const storageKey = (variant: string, agentId: number) => `cadre-chat:${variant}:last-thread:${agentId}`;

/**
 * The conversation shown (a stored thread, a new chat not saved yet, or a thread not found) and
 * the drawer of threads, which closes when another is shown. The thread last open with each agent
 * is remembered in `storage`; the page hears of each change through `onThreadChange`.
 */
export function useOpenThread(options: {
  api: ChatApi;
  variant: string;
  storage?: Storage;
  onThreadChange?: (threadId: string | null, history: ThreadHistory) => void;
  onFailure: (e: unknown) => void;
}) {
  const { api, variant, storage, onThreadChange, onFailure } = options;
  const [open, setOpen] = useState<OpenThread | null>(null);
  const [drawer, setDrawer] = useState(false);

  const remember = useCallback(
    (session: ChatSessionInfo, threadId: string) => {
      try {
        storage?.setItem(storageKey(variant, session.agent.id), threadId);
      } catch {
        // storage may be unavailable (private mode); the thread list still works
      }
    },
    [storage, variant],
  );

  /** The thread last open with the session's agent, if storage knows one. */
  const lastOpen = useCallback(
    (session: ChatSessionInfo): string | null => {
      try {
        return storage?.getItem(storageKey(variant, session.agent.id)) ?? null;
      } catch {
        return null;
      }
    },
    [storage, variant],
  );

  const startNew = useCallback(
    (history: ThreadHistory) => {
      const id = crypto.randomUUID();
      setOpen((prev) => ({ id, messages: [], key: (prev?.key ?? 0) + 1, saved: false, olderCursor: null }));
      onThreadChange?.(null, history);
      setDrawer(false);
    },
    [onThreadChange],
  );

  const openThread = useCallback(
    async (
      session: ChatSessionInfo,
      id: string,
      history: ThreadHistory,
      /** 'new': a missing thread opens a new chat instead (the remembered one may be gone). */
      ifMissing: 'show' | 'new' = 'show',
    ) => {
      try {
        // The newest messages: the conversation loads earlier ones as the person scrolls up.
        const loaded = await api.messages(id, { limit: CHAT_PAGE_SIZE });
        const messages = toUiMessages(loaded.messages);
        const olderCursor = loaded.nextCursor ?? null;
        setOpen((prev) => ({ id, messages, key: (prev?.key ?? 0) + 1, saved: true, olderCursor }));
        remember(session, id);
        onThreadChange?.(id, history);
        setDrawer(false);
      } catch (e) {
        if (e instanceof ChatHttpError && e.code === 'not_found' && ifMissing === 'new') startNew('replace');
        else if (e instanceof ChatHttpError && e.code === 'not_found') {
          setOpen((prev) => ({
            id,
            messages: [],
            key: (prev?.key ?? 0) + 1,
            saved: true,
            missing: true,
            olderCursor: null,
          }));
        } else onFailure(e);
      }
    },
    [api, remember, onThreadChange, onFailure, startNew],
  );

  /** A new chat's first turn is stored: from now on it has an address of its own. */
  const openRef = useRef(open);
  useEffect(() => {
    openRef.current = open;
  });
  const markSaved = useCallback(
    (session: ChatSessionInfo, id: string) => {
      const current = openRef.current;
      if (!current || current.id !== id || current.saved) return;
      const saved = { ...current, saved: true };
      openRef.current = saved;
      setOpen(saved);
      remember(session, id);
      onThreadChange?.(id, 'replace');
    },
    [remember, onThreadChange],
  );

  return { open, drawer, setDrawer, lastOpen, startNew, openThread, markSaved };
}
