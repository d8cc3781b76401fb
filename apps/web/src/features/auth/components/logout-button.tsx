import { Button, CloseButton, Dialog, Flex, Portal, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { FiLogOut } from 'react-icons/fi';
import { useAuthSession } from '../auth-session';

/** The sidebar's 'Log Out': a confirmation, then the provider's sign-out and the logout redirect. */
export function LogoutButton() {
  const session = useAuthSession();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);

  async function logout() {
    setPending(true);
    try {
      await session.signOut();
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(event) => setOpen(event.open)} role="alertdialog">
      <Dialog.Trigger asChild>
        <Button variant="ghost" justifyContent="flex-start" px="3" w="full" fontWeight="normal">
          <Flex align="center" gap="3">
            <FiLogOut />
            <Text>Log Out</Text>
          </Flex>
        </Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>Logout Confirmation</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text>Are you sure you want to log out?</Text>
            </Dialog.Body>
            <Dialog.Footer>
              <Button colorPalette="red" loading={pending} onClick={() => void logout()}>
                Logout
              </Button>
              <Dialog.ActionTrigger asChild>
                <Button variant="outline">Cancel</Button>
              </Dialog.ActionTrigger>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
