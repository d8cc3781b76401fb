import { Box, Button, HStack, IconButton, Input, Text } from '@chakra-ui/react';
import type { ChatThread } from '@cadre/contract';
import { chatThreadRenameSchema, formRules } from '@cadre/contract';

/**
 * One thread in the list: opens it, or renames it in place (`renaming` holds the name being typed),
 * or asks before deleting it (`confirmingDelete`).
 */
export function ThreadItem({
  thread,
  current,
  renaming,
  onRenaming,
  confirmingDelete,
  onConfirmingDelete,
  onSelect,
  onRename,
  onDelete,
}: {
  thread: ChatThread;
  current: boolean;
  renaming: string | null;
  /** The name typed so far, or null when the rename ends. */
  onRenaming: (name: string | null) => void;
  confirmingDelete: boolean;
  onConfirmingDelete: (asking: boolean) => void;
  onSelect: () => void;
  onRename: (name: string) => void;
  onDelete: () => void;
}) {
  return (
    <Box borderRadius="md" bg={current ? 'brand.subtle' : undefined} data-testid="thread-item">
      {renaming !== null ? (
        <HStack
          as="form"
          p="1"
          onSubmit={(e) => {
            e.preventDefault();
            if (renaming.trim()) onRename(renaming.trim());
            onRenaming(null);
          }}
        >
          <Input
            size="xs"
            aria-label="Thread name"
            value={renaming}
            maxLength={formRules(chatThreadRenameSchema).name.maxLength}
            autoFocus
            onChange={(e) => onRenaming(e.target.value)}
          />
          <Button size="xs" type="submit">
            Save
          </Button>
        </HStack>
      ) : confirmingDelete ? (
        <HStack p="1" justify="space-between">
          <Text fontSize="xs">Delete this chat?</Text>
          <HStack gap="1">
            <Button
              size="xs"
              colorPalette="red"
              onClick={() => {
                onConfirmingDelete(false);
                onDelete();
              }}
            >
              Delete
            </Button>
            <Button size="xs" variant="ghost" onClick={() => onConfirmingDelete(false)}>
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
            fontWeight={current ? 'semibold' : 'normal'}
            onClick={onSelect}
            aria-current={current ? 'page' : undefined}
          >
            <Text truncate>{thread.name}</Text>
          </Button>
          <IconButton
            size="xs"
            variant="ghost"
            aria-label={`Rename ${thread.name}`}
            onClick={() => onRenaming(thread.name)}
          >
            ✎
          </IconButton>
          <IconButton
            size="xs"
            variant="ghost"
            aria-label={`Delete ${thread.name}`}
            onClick={() => onConfirmingDelete(true)}
          >
            ✕
          </IconButton>
        </HStack>
      )}
    </Box>
  );
}
