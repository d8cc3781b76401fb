import { Alert } from '@chakra-ui/react';

/**
 * Shown above every screen while the API refuses the signed-in account because an admin disabled
 * it (403 `account_disabled`), so the screens' own load errors are explained.
 */
export function AccountDisabledNotice() {
  return (
    <Alert.Root status="error" mb="6" role="alert">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>This account is disabled</Alert.Title>
        <Alert.Description>
          An administrator disabled this account, so Cadre refuses everything it asks. Ask them to enable it
          again, or sign out.
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
