import { Box, Button, Field, Heading, Input, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { FiDownload, FiTrash2 } from 'react-icons/fi';
import { DialogShell } from '../../../components/form-dialog';
import { useDeleteMyData, useExportMyData } from '../../../lib/my-data';

/** What the person types to delete their account: a word typed on purpose, not a click by mistake. */
export const DELETE_CONFIRMATION = 'DELETE';

/** "Your data": download everything Cadre stores about you, or delete the account for good. */
export function YourDataDialog(props: { open: boolean; onClose: () => void; signOut: () => Promise<void> }) {
  const { open, onClose } = props;
  const [typed, setTyped] = useState('');
  const exportData = useExportMyData();
  const deleteData = useDeleteMyData({ signOut: props.signOut });
  const close = () => {
    setTyped('');
    onClose();
  };
  const confirmed = typed.trim() === DELETE_CONFIRMATION;
  return (
    <DialogShell open={open} onClose={close} title="Your data" placement="center">
      <Stack gap="6">
        <Stack gap="2">
          <Heading as="h3" size="sm">
            Download a copy
          </Heading>
          <Text fontSize="sm" color="fg.muted">
            Everything Cadre stores about you (your profile, agents, connected services without their
            credentials, chats and activity log) as one JSON file.
          </Text>
          <Box>
            <Button variant="outline" onClick={() => exportData.mutate()} loading={exportData.isPending}>
              <FiDownload aria-hidden="true" /> Download my data
            </Button>
          </Box>
        </Stack>
        <Stack
          as="form"
          gap="2"
          borderTopWidth="1px"
          pt="4"
          onSubmit={(event) => {
            event.preventDefault();
            if (confirmed) deleteData.mutate();
          }}
        >
          <Heading as="h3" size="sm" color="fg.error">
            Delete your account
          </Heading>
          <Text fontSize="sm" color="fg.muted">
            This deletes your agents, connected services, chats and logs for good, and signs you out. It
            cannot be undone.
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
      </Stack>
    </DialogShell>
  );
}
