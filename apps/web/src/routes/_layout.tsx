import { Box, Flex } from '@chakra-ui/react';
import { createFileRoute, Outlet, useMatches } from '@tanstack/react-router';
import { AccessCodeGate, LogoutButton, RequireAuth } from '../features/auth';
import { Sidebar } from '../features/shell/components/sidebar';

/**
 * The protected shell (spec section 2): the beta access-code page until the code was accepted,
 * then identity sign-in, then the sidebar beside the current page.
 */
export const Route = createFileRoute('/_layout')({
  component: Layout,
});

function Layout() {
  const fullBleed = useMatches({ select: (matches) => matches.some((m) => m.staticData?.fullBleed) });
  return (
    <AccessCodeGate>
      <RequireAuth>
        <Flex direction={{ base: 'column', md: 'row' }} minH="100vh">
          <Sidebar footer={<LogoutButton />} />
          <Box
            as="main"
            flex="1"
            minW="0"
            px={fullBleed ? '0' : { base: '4', md: '8' }}
            py={fullBleed ? '0' : { base: '4', md: '8' }}
          >
            <Outlet />
          </Box>
        </Flex>
      </RequireAuth>
    </AccessCodeGate>
  );
}
