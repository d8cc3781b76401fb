import { Button, Flex, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { FiLogOut } from 'react-icons/fi';
import { ConfirmDialog } from '../../../components/confirm-dialog';
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
    <>
      <Button
        variant="ghost"
        justifyContent="flex-start"
        px="3"
        w="full"
        fontWeight="normal"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        <Flex align="center" gap="3">
          <FiLogOut />
          <Text>Log Out</Text>
        </Flex>
      </Button>
      <ConfirmDialog
        open={open}
        title="Logout Confirmation"
        message="Are you sure you want to log out?"
        confirmLabel="Logout"
        pending={pending}
        onConfirm={() => void logout()}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}
