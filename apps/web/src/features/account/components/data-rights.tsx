import { Button, HStack } from '@chakra-ui/react';
import { useState } from 'react';
import { FiDownload, FiTrash2 } from 'react-icons/fi';
import { DialogShell } from '../../../components/form-dialog';
import { useExportMyData } from '../my-data';
import { DeleteAccountForm } from './delete-account-form';

/**
 * The Info page's data rights: export, and deletion behind the same typed confirmation as the user
 * menu's "Your data" (one form, so neither place is the easier way to delete by mistake).
 */
export function DataRights({ signOut }: { signOut: () => Promise<void> }) {
  const [deleting, setDeleting] = useState(false);
  const exportData = useExportMyData();
  return (
    <HStack gap="3" flexWrap="wrap">
      <Button variant="outline" onClick={() => exportData.mutate()} loading={exportData.isPending}>
        <FiDownload aria-hidden="true" /> Export my data
      </Button>
      <Button variant="outline" colorPalette="red" onClick={() => setDeleting(true)}>
        <FiTrash2 aria-hidden="true" /> Delete my data
      </Button>
      <DialogShell
        open={deleting}
        onClose={() => setDeleting(false)}
        title="Delete my data"
        placement="center"
      >
        <DeleteAccountForm signOut={signOut} />
      </DialogShell>
    </HStack>
  );
}
