import { Box, Button, Input, Stack, Text } from '@chakra-ui/react';
import type { ChatThread } from '@cadre/contract';
import { useInView } from '@cadre/ui';
import { useEffect, useRef, useState } from 'react';
import { ThreadItem } from './thread-item';
import { chatThreadListQuerySchema, formRules } from '@cadre/contract';

export interface ThreadListProps {
  threads: ChatThread[];
  currentId: string;
  onNew: () => void;
  onSelect: (id: string) => void;
  onRename: (id: string, name: string) => void;
  onDelete: (id: string) => void;
  /** Finds this agent's threads by name and message text (on the server). */
  onSearch?: (query: string) => Promise<ChatThread[]>;
  /** Older threads than those listed: whether there are (a cursor), and loading them. */
  more?: { cursor: string | null; loading: boolean; failed: boolean; onLoad: () => void };
}

const SEARCH_DELAY_MS = 250;

/** The threads matching `query` once the person pauses typing; null while there is no query. */
function useThreadSearch(query: string, search: ThreadListProps['onSearch']) {
  const [found, setFound] = useState<{ query: string; threads: ChatThread[] | 'failed' } | null>(null);
  useEffect(() => {
    const q = query.trim();
    if (!q || !search) return;
    let current = true;
    const timer = setTimeout(() => {
      search(q).then(
        (threads) => current && setFound({ query: q, threads }),
        () => current && setFound({ query: q, threads: 'failed' }),
      );
    }, SEARCH_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [query, search]);
  return query.trim() && found?.query === query.trim() ? found.threads : null;
}

/** This agent's threads: new, resume, rename, delete. */
export function ThreadList({
  threads,
  currentId,
  onNew,
  onSelect,
  onRename,
  onDelete,
  onSearch,
  more,
}: ThreadListProps) {
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const found = useThreadSearch(query, onSearch);
  const shown = Array.isArray(found) ? found : threads;
  const scroller = useRef<HTMLDivElement>(null);
  const end = useRef<HTMLDivElement>(null);
  // Search results are not paged; the listed threads load older ones at the end of the list.
  const hasMore = found === null && !!more && more.cursor !== null;
  useInView(end, () => more?.onLoad(), hasMore && !more.loading && !more.failed, {
    root: scroller,
  });
  return (
    <Stack gap="2" p="3" h="full" minH="0" as="nav" aria-label="Threads">
      <Button onClick={onNew} bg="brand.solid" color="brand.contrast" size="sm">
        New chat
      </Button>
      {onSearch && (
        <Input
          size="sm"
          type="search"
          aria-label="Search chats"
          placeholder="Search chats"
          value={query}
          maxLength={formRules(chatThreadListQuerySchema).q.maxLength}
          onChange={(e) => setQuery(e.target.value)}
        />
      )}
      <Stack gap="1" overflowY="auto" minH="0" flex="1" ref={scroller}>
        {found === 'failed' && (
          <Text fontSize="sm" color="fg.error" px="2" role="alert">
            The search failed. Try again in a moment.
          </Text>
        )}
        {shown.length === 0 && found === null && (
          <Text fontSize="sm" color="fg.muted" px="2">
            No conversations yet.
          </Text>
        )}
        {Array.isArray(found) && found.length === 0 && (
          <Text fontSize="sm" color="fg.muted" px="2" role="status">
            No chats match “{query.trim()}”.
          </Text>
        )}
        {shown.map((thread) => (
          <ThreadItem
            key={thread.id}
            thread={thread}
            current={thread.id === currentId}
            renaming={renaming?.id === thread.id ? renaming.name : null}
            onRenaming={(name) => setRenaming(name === null ? null : { id: thread.id, name })}
            confirmingDelete={confirmDelete === thread.id}
            onConfirmingDelete={(asking) => setConfirmDelete(asking ? thread.id : null)}
            onSelect={() => onSelect(thread.id)}
            onRename={(name) => onRename(thread.id, name)}
            onDelete={() => onDelete(thread.id)}
          />
        ))}
        {hasMore && (
          <Box ref={end} px="2" py="1" data-testid="more-threads">
            {more.failed && (
              <Text fontSize="sm" color="fg.error" role="alert">
                Older chats could not be loaded.
              </Text>
            )}
            <Button size="xs" variant="ghost" loading={more.loading} onClick={more.onLoad}>
              {more.failed ? 'Try again' : 'Load more chats'}
            </Button>
          </Box>
        )}
      </Stack>
    </Stack>
  );
}
