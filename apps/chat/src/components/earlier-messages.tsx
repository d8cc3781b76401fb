import { Button, Stack, Text } from '@chakra-ui/react';
import type { CadreUIMessage } from '@cadre/contract';
import { useInView } from '@cadre/ui';
import { useLayoutEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { CHAT_PAGE_SIZE, toUiMessages, type ChatApi } from '../lib/api';

/**
 * A thread opens at its newest messages; earlier ones load above as the person scrolls up (or asks),
 * with the message being read kept in place. Any other change (a turn, a streamed token) shows the end.
 */
export function useEarlierMessages({
  api,
  threadId,
  olderCursor,
  messages,
  setMessages,
}: {
  api: ChatApi;
  threadId: string;
  /** The cursor of the messages before those shown first (null: they start the thread). */
  olderCursor: string | null;
  messages: CadreUIMessage[];
  setMessages: Dispatch<SetStateAction<CadreUIMessage[]>>;
}) {
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

  return { older, loadEarlier, scrollerRef, topRef, bottomRef };
}

/** Above the messages while the thread has earlier ones: loading them, or why they did not load. */
export function EarlierMessages({
  earlier: { older, loadEarlier, topRef },
}: {
  earlier: ReturnType<typeof useEarlierMessages>;
}) {
  if (older.cursor === null) return null;
  return (
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
  );
}
