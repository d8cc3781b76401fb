import { Box, Button, Heading, Stack, Text } from '@chakra-ui/react';
import { FiDownload } from 'react-icons/fi';
import { DialogShell } from '../../../components/form-dialog';
import { useExportMyData } from '../my-data';
import { DeleteAccountForm } from './delete-account-form';

/** "Your data": download everything Cadre stores about you, or delete the account for good. */
export function YourDataDialog(props: { open: boolean; onClose: () => void; signOut: () => Promise<void> }) {
  const exportData = useExportMyData();
  return (
    <DialogShell open={props.open} onClose={props.onClose} title="Your data" placement="center">
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
        <Box borderTopWidth="1px" pt="4">
          <DeleteAccountForm signOut={props.signOut} />
        </Box>
      </Stack>
    </DialogShell>
  );
}
