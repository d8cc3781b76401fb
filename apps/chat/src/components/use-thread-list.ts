import type { ChatThread } from '@cadre/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { CHAT_PAGE_SIZE, type ChatApi } from '../lib/api';
import type { ChatSession } from './use-chat-session';

/** The threads listed past the pages loaded: the next page's cursor, and how loading it went. */
export interface MoreThreads {
  cursor: string | null;
  loading: boolean;
  failed: boolean;
}

/** Most threads one refresh reloads (the contract's page maximum). */
const MAX_THREADS_RELOADED = 1000;

type ThreadPage = Awaited<ReturnType<ChatApi['listThreads']>>;

/** This agent's threads, newest first, loaded a page at a time as the person scrolls the list. */
export function useThreadList(api: ChatApi, { handleFailure, clearProblem, endIfOver }: ChatSession) {
  const [threads, setThreads] = useState<ChatThread[]>([]);
  const [more, setMore] = useState<MoreThreads>({ cursor: null, loading: false, failed: false });

  /** The newest threads, and the cursor of the page after them. */
  const showFirstPage = useCallback((page: ThreadPage) => {
    setThreads(page.threads);
    setMore({ cursor: page.nextCursor, loading: false, failed: false });
  }, []);

  // A refresh (a turn ended, a rename, a delete) reloads as many threads as are listed, so the
  // older pages the person scrolled to stay listed.
  const listedRef = useRef(0);
  useEffect(() => {
    listedRef.current = threads.length;
  });
  const refresh = useCallback(async () => {
    try {
      const limit = Math.min(MAX_THREADS_RELOADED, Math.max(CHAT_PAGE_SIZE, listedRef.current));
      showFirstPage(await api.listThreads({ limit }));
      clearProblem();
    } catch (e) {
      handleFailure(e);
    }
  }, [api, handleFailure, clearProblem, showFirstPage]);

  const loadMore = useCallback(async () => {
    const { cursor, loading } = more;
    if (cursor === null || loading) return;
    setMore({ cursor, loading: true, failed: false });
    try {
      const page = await api.listThreads({ limit: CHAT_PAGE_SIZE, cursor });
      setThreads((listed) => {
        const known = new Set(listed.map((t) => t.id));
        return [...listed, ...page.threads.filter((t) => !known.has(t.id))];
      });
      setMore({ cursor: page.nextCursor, loading: false, failed: false });
    } catch (e) {
      endIfOver(e);
      setMore({ cursor, loading: false, failed: true });
    }
  }, [api, more, endIfOver]);

  return { threads, more, showFirstPage, refresh, loadMore };
}
