import { Box, Button, Field, Heading, Input, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { FiTrash2 } from 'react-icons/fi';
import { useDeleteMyData } from '../my-data';

/** What the person types to delete their account: a word typed on purpose, not a click by mistake. */
export const DELETE_CONFIRMATION = 'DELETE';

/**
 * Deleting the account for good, wherever it is offered (the user menu's "Your data", the Info
 * page): enabled only once DELETE is typed, then the account is deleted and the person signed out.
 */
export function DeleteAccountForm({ signOut }: { signOut: () => Promise<void> }) {
  const [typed, setTyped] = useState('');
  const deleteData = useDeleteMyData({ signOut });
  const confirmed = typed.trim() === DELETE_CONFIRMATION;
  return (
    <Stack
      as="form"
      gap="2"
      onSubmit={(event) => {
        event.preventDefault();
        if (confirmed) deleteData.mutate();
      }}
    >
      <Heading as="h3" size="sm" color="fg.error">
        Delete your account
      </Heading>
      <Text fontSize="sm" color="fg.muted">
        This deletes your agents, connected services, chats and logs for good, and signs you out. It cannot be
        undone.
      </Text>
      <Field.Root>
        <Field.Label>Type {DELETE_CONFIRMATION} to confirm</Field.Label>
        <Input
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
      </Field.Root>
      <Box>
        <Button type="submit" colorPalette="red" disabled={!confirmed} loading={deleteData.isPending}>
          <FiTrash2 aria-hidden="true" /> Delete my account
        </Button>
      </Box>
    </Stack>
  );
}
