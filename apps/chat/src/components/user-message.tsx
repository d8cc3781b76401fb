import { Box, Button, HStack, Stack, Textarea } from '@chakra-ui/react';
import type { CadreUIMessage } from '@cadre/contract';
import { useState } from 'react';
import { textOfMessage } from './answer-footer';
import { MessageText } from './message-text';
import { MESSAGE_RULES } from '../lib/message-rules';

/**
 * A message the person sent. The last one can be edited (`editing` holds its text then), and is
 * sent again in its place.
 */
export function UserMessage({
  message,
  editing,
  canEdit,
  onEdit,
  onCancelEdit,
  onResend,
}: {
  message: CadreUIMessage;
  editing: string | null;
  canEdit: boolean;
  onEdit: (text: string) => void;
  onCancelEdit: () => void;
  onResend: (text: string) => void;
}) {
  return (
    <Box alignSelf="flex-end" maxW="85%" data-testid="user-message">
      {editing !== null ? (
        <EditBox initial={editing} onCancel={onCancelEdit} onSave={onResend} />
      ) : (
        <>
          <Box bg="brand.subtle" borderRadius="lg" px="3" py="2" whiteSpace="pre-wrap">
            <MessageText text={textOfMessage(message)} />
          </Box>
          {canEdit && (
            <HStack justify="end">
              <Button size="2xs" variant="ghost" onClick={() => onEdit(textOfMessage(message))}>
                Edit
              </Button>
            </HStack>
          )}
        </>
      )}
    </Box>
  );
}

function EditBox({
  initial,
  onSave,
  onCancel,
}: {
  initial: string;
  onSave: (text: string) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState(initial);
  return (
    <Stack gap="2" minW={{ base: '60vw', md: 'md' }}>
      <Textarea
        aria-label="Edit message"
        maxLength={MESSAGE_RULES.maxLength}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onCancel();
        }}
        autoFocus
        autoresize
      />
      <HStack justify="end">
        <Button size="xs" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button
          size="xs"
          bg="brand.solid"
          color="brand.contrast"
          disabled={!text.trim()}
          onClick={() => onSave(text.trim())}
        >
          Save and resend
        </Button>
      </HStack>
    </Stack>
  );
}
