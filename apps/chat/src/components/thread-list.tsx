import { Box, Button, HStack, IconButton, Input, Stack, Text } from '@chakra-ui/react';
import type { ChatThread } from '@cadre/contract';
import { useState } from 'react';

export interface ThreadListProps {
  threads: ChatThread[];
  currentId: string;
  onNew: () => void;
  onSelect: (id: string) => void;
  onRename: (id: string, name: string) => void;
  onDelete: (id: string) => void;
}

/** This agent's threads: new, resume, rename, delete. */
export function ThreadList({ threads, currentId, onNew, onSelect, onRename, onDelete }: ThreadListProps) {
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);
  return (
    <Stack gap="2" p="3" h="full" minH="0" as="nav" aria-label="Threads">
      <Button onClick={onNew} bg="brand.solid" color="brand.contrast" size="sm">
        New chat
      </Button>
      <Stack gap="1" overflowY="auto" minH="0" flex="1">
        {threads.length === 0 && (
          <Text fontSize="sm" color="fg.muted" px="2">
            No conversations yet.
          </Text>
        )}
        {threads.map((thread) => (
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
      </Stack>
    </Stack>
  );
}
