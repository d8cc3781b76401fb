import { Box, Button, HStack, IconButton, Input, Stack, Text } from '@chakra-ui/react';
import type { ChatThread } from '@cadre/contract';
import { useInView } from '@cadre/ui';
import { useEffect, useRef, useState } from 'react';

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
          maxLength={200}
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
          <Box
            key={thread.id}
            borderRadius="md"
            bg={thread.id === currentId ? 'brand.subtle' : undefined}
            data-testid="thread-item"
          >
            {renaming?.id === thread.id ? (
              <HStack
                as="form"
                p="1"
                onSubmit={(e) => {
                  e.preventDefault();
                  if (renaming.name.trim()) onRename(thread.id, renaming.name.trim());
                  setRenaming(null);
                }}
              >
                <Input
                  size="xs"
                  aria-label="Thread name"
                  value={renaming.name}
                  maxLength={200}
                  autoFocus
                  onChange={(e) => setRenaming({ id: thread.id, name: e.target.value })}
                />
                <Button size="xs" type="submit">
                  Save
                </Button>
              </HStack>
            ) : confirmDelete === thread.id ? (
              <HStack p="1" justify="space-between">
                <Text fontSize="xs">Delete this chat?</Text>
                <HStack gap="1">
                  <Button
                    size="xs"
                    colorPalette="red"
                    onClick={() => {
                      setConfirmDelete(null);
                      onDelete(thread.id);
                    }}
                  >
                    Delete
                  </Button>
                  <Button size="xs" variant="ghost" onClick={() => setConfirmDelete(null)}>
                    Cancel
                  </Button>
                </HStack>
              </HStack>
            ) : (
              <HStack gap="0">
                <Button
                  variant="ghost"
                  size="sm"
                  flex="1"
                  minW="0"
                  justifyContent="flex-start"
                  fontWeight={thread.id === currentId ? 'semibold' : 'normal'}
                  onClick={() => onSelect(thread.id)}
                  aria-current={thread.id === currentId ? 'page' : undefined}
                >
                  <Text truncate>{thread.name}</Text>
                </Button>
                <IconButton
                  size="xs"
                  variant="ghost"
                  aria-label={`Rename ${thread.name}`}
                  onClick={() => setRenaming({ id: thread.id, name: thread.name })}
                >
                  ✎
                </IconButton>
                <IconButton
                  size="xs"
                  variant="ghost"
                  aria-label={`Delete ${thread.name}`}
                  onClick={() => setConfirmDelete(thread.id)}
                >
                  ✕
                </IconButton>
              </HStack>
            )}
          </Box>
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
