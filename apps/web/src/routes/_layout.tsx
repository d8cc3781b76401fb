import { Box, Flex } from '@chakra-ui/react';
import { createFileRoute, Outlet, redirect, useMatches } from '@tanstack/react-router';
import { UserMenu } from '../features/account';
import {
  AccessCodePage,
  hasPassedAccessCode,
  LoadingScreen,
  LogoutButton,
  useAuthSession,
} from '../features/auth';
import { DesktopHeader } from '../features/shell/components/desktop-header';
import { Sidebar } from '../features/shell/components/sidebar';
import { AccountDisabledNotice } from '../components/account-disabled-notice';
import { useAccountDisabled } from '../lib/role';

/**
 * The protected shell (spec section 2): the beta access-code page until the code was accepted,
 * then identity sign-in, then the sidebar beside the current page.
 */
export const Route = createFileRoute('/_layout')({
  // The one guard of every page in the shell. The access-code page shows in place (the address
  // stays) and the pages' loaders skip their queries behind it; without a session the browser
  // goes to the identity provider, coming back to the page it asked for.
  beforeLoad: async ({ context: { auth }, location }) => {
    if (!hasPassedAccessCode()) return { accessCodeRequired: true };
    if (!(await auth.isSignedIn())) {
      throw redirect({ href: await auth.signInUrl(location.href), reloadDocument: true });
    }
    return { accessCodeRequired: false };
  },
  pendingComponent: LoadingScreen,
  component: Layout,
});

function Layout() {
  const accessCodeRequired = Route.useRouteContext({ select: (context) => context.accessCodeRequired });
  const fullBleed = useMatches({ select: (matches) => matches.some((m) => m.staticData?.fullBleed) });
  const session = useAuthSession();
  const disabled = useAccountDisabled(!accessCodeRequired);
  if (accessCodeRequired) return <AccessCodePage />;
  const account = <UserMenu user={session.user ?? {}} onSignOut={session.signOut} />;
  return (
    <Flex direction={{ base: 'column', md: 'row' }} minH="100vh">
      <Sidebar footer={<LogoutButton />} account={account} />
      <Flex direction="column" flex="1" minW="0">
        <DesktopHeader>{account}</DesktopHeader>
        <Box
          as="main"
          flex="1"
          minW="0"
          px={fullBleed ? '0' : { base: '4', md: '8' }}
          py={fullBleed ? '0' : { base: '4', md: '8' }}
        >
          {disabled && <AccountDisabledNotice />}
          <Outlet />
        </Box>
      </Flex>
    </Flex>
  );
}
