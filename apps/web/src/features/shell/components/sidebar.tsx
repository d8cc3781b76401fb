import { Box, Drawer, Flex, IconButton, Portal, Stack, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { FiInfo, FiMenu } from 'react-icons/fi';
import { LogoutButton } from '../../auth/components/logout-button';

/** Width of the sidebar, and the maximum width of the mobile drawer (spec section 9). */
export const SIDEBAR_WIDTH = '250px';

interface NavItem {
  label: string;
  to: '/info';
  icon: ReactNode;
}

const NAV_ITEMS: NavItem[] = [{ label: 'Info', to: '/info', icon: <FiInfo /> }];

function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <Stack as="nav" aria-label="Main" gap="1">
      {NAV_ITEMS.map((item) => (
        <Link
          key={item.to}
          to={item.to}
          onClick={onNavigate}
          activeProps={{ 'aria-current': 'page' }}
          className="cadre-nav-link"
        >
          <Flex
            align="center"
            gap="3"
            px="3"
            py="2"
            rounded="md"
            _hover={{ bg: 'bg.muted' }}
            css={{
              '[aria-current=page] &': { bg: 'brand.muted', color: 'brand.fg', fontWeight: 'semibold' },
            }}
          >
            {item.icon}
            <Text>{item.label}</Text>
          </Flex>
        </Link>
      ))}
    </Stack>
  );
}

function Brand() {
  return (
    <Text fontSize="xl" fontWeight="bold" color="brand.fg" px="3" py="2">
      Cadre
    </Text>
  );
}

/** The shell's navigation: a fixed column on wide screens, a drawer behind a menu button on small ones. */
export function Sidebar() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Box
        as="aside"
        display={{ base: 'none', md: 'flex' }}
        flexDirection="column"
        gap="4"
        w={SIDEBAR_WIDTH}
        flexShrink={0}
        borderRightWidth="1px"
        p="4"
        h="100vh"
        position="sticky"
        top="0"
      >
        <Brand />
        <NavLinks />
        <Box mt="auto">
          <LogoutButton />
        </Box>
      </Box>
      <Flex
        display={{ base: 'flex', md: 'none' }}
        align="center"
        gap="2"
        px="3"
        py="2"
        borderBottomWidth="1px"
        position="sticky"
        top="0"
        bg="bg"
        zIndex="sticky"
      >
        <Drawer.Root open={open} onOpenChange={(e) => setOpen(e.open)} placement="start">
          <Drawer.Trigger asChild>
            <IconButton aria-label="Open menu" variant="ghost">
              <FiMenu />
            </IconButton>
          </Drawer.Trigger>
          <Portal>
            <Drawer.Backdrop />
            <Drawer.Positioner>
              <Drawer.Content maxW={SIDEBAR_WIDTH} data-testid="sidebar-drawer">
                <Drawer.Header>
                  <Drawer.Title asChild>
                    <Brand />
                  </Drawer.Title>
                </Drawer.Header>
                <Drawer.Body>
                  <NavLinks onNavigate={() => setOpen(false)} />
                  <Box mt="4">
                    <LogoutButton />
                  </Box>
                </Drawer.Body>
                <Drawer.CloseTrigger />
              </Drawer.Content>
            </Drawer.Positioner>
          </Portal>
        </Drawer.Root>
        <Brand />
      </Flex>
    </>
  );
}
