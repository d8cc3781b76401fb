import { Box, Flex } from '@chakra-ui/react';
import { createFileRoute, Outlet } from '@tanstack/react-router';
import { AccessCodeGate, RequireAuth } from '../features/auth';
import { Sidebar } from '../features/shell/components/sidebar';

/**
 * The protected shell (spec section 2): the beta access-code page until the code was accepted,
 * then identity sign-in, then the sidebar beside the current page.
 */
export const Route = createFileRoute('/_layout')({
  component: Layout,
});

function Layout() {
  return (
    <AccessCodeGate>
      <RequireAuth>
        <Flex direction={{ base: 'column', md: 'row' }} minH="100vh">
          <Sidebar />
          <Box as="main" flex="1" minW="0" px={{ base: '4', md: '8' }} py={{ base: '4', md: '8' }}>
            <Outlet />
          </Box>
        </Flex>
      </RequireAuth>
    </AccessCodeGate>
  );
}
