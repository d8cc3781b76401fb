import { Box, CloseButton, Drawer, Flex, IconButton, Portal, Stack, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import {
  FiCpu,
  FiExternalLink,
  FiInfo,
  FiLayers,
  FiMenu,
  FiMessageCircle,
  FiShield,
  FiTool,
} from 'react-icons/fi';
import { useRuntimeConfig } from '../../../config/runtime-config-context';
import { usePreloadScreens } from '../../../lib/preload-screens';
import { useCan } from '../../../lib/role';
import { SHELL_BAR_HEIGHT } from './desktop-header';

/** Width of the sidebar, and the maximum width of the mobile drawer (spec section 9). */
export const SIDEBAR_WIDTH = '250px';

interface NavItem {
  label: string;
  to: '/info' | '/agents' | '/services' | '/debug_info' | '/admin';
  icon: ReactNode;
}

const NAV_ITEMS: NavItem[] = [
  { label: 'Info', to: '/info', icon: <FiInfo aria-hidden="true" /> },
  { label: 'Agents', to: '/agents', icon: <FiCpu aria-hidden="true" /> },
  { label: 'Services', to: '/services', icon: <FiLayers aria-hidden="true" /> },
];

const DEBUG_ITEM: NavItem = { label: 'Debug', to: '/debug_info', icon: <FiTool aria-hidden="true" /> };

const ADMIN_ITEM: NavItem = { label: 'Admin', to: '/admin', icon: <FiShield aria-hidden="true" /> };

/**
 * The sidebar links of spec section 2: Admin only for admins, Debug only in development, Feedback
 * only when configured.
 */
export function navItems(config: { isDevelopment: boolean }, admin = false): NavItem[] {
  return [...NAV_ITEMS, ...(admin ? [ADMIN_ITEM] : []), ...(config.isDevelopment ? [DEBUG_ITEM] : [])];
}

const linkRow = {
  align: 'center',
  gap: '3',
  px: '3',
  py: '2',
  rounded: 'md',
  _hover: { bg: 'bg.muted' },
} as const;

function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  const config = useRuntimeConfig();
  const items = navItems(config, useCan('administer'));
  usePreloadScreens(items.map((item) => item.to));
  return (
    <Stack as="nav" aria-label="Main" gap="1">
      {items.map((item) => (
        <Link
          key={item.to}
          to={item.to}
          onClick={onNavigate}
          activeProps={{ 'aria-current': 'page' }}
          className="cadre-nav-link"
        >
          <Flex
            {...linkRow}
            css={{
              '[aria-current=page] &': { bg: 'brand.muted', color: 'brand.fg', fontWeight: 'semibold' },
            }}
          >
            {item.icon}
            <Text>{item.label}</Text>
          </Flex>
        </Link>
      ))}
      {config.feedbackUrl && (
        <a href={config.feedbackUrl} target="_blank" rel="noopener noreferrer" onClick={onNavigate}>
          <Flex {...linkRow}>
            <FiMessageCircle aria-hidden="true" />
            <Text>Feedback</Text>
            <FiExternalLink aria-hidden="true" />
            <Text srOnly>(opens in a new tab)</Text>
          </Flex>
        </a>
      )}
    </Stack>
  );
}

function Brand() {
  return (
    <Text fontSize="xl" fontWeight="bold" color="brand.fg" px="3" py="2" flex="1">
      Cadre
    </Text>
  );
}

/** From md up: a column beside the content that stays in view while the page scrolls. */
const DESKTOP_SIDEBAR = {
  display: { base: 'none', md: 'flex' },
  flexDirection: 'column',
  gap: '4',
  w: SIDEBAR_WIDTH,
  flexShrink: 0,
  borderRightWidth: '1px',
  p: '4',
  h: '100vh',
  position: 'sticky',
  top: '0',
} as const;

/**
 * The shell's navigation: a fixed column on wide screens, a drawer behind a menu button on small ones.
 * `account` (the user menu) sits in the small screens' menu bar, beside the brand; wide screens have
 * it in the header above the page (desktop-header.tsx).
 */
export function Sidebar({ footer, account }: { footer?: ReactNode; account?: ReactNode } = {}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Box as="aside" {...DESKTOP_SIDEBAR}>
        <Flex align="center" gap="2">
          <Brand />
        </Flex>
        <NavLinks />
        {footer && <Box mt="auto">{footer}</Box>}
      </Box>
      <Flex
        display={{ base: 'flex', md: 'none' }}
        align="center"
        gap="2"
        px="3"
        h={SHELL_BAR_HEIGHT}
        flexShrink={0}
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
                  <Drawer.Title fontSize="xl" fontWeight="bold" color="brand.fg" px="3" py="2">
                    Cadre
                  </Drawer.Title>
                </Drawer.Header>
                <Drawer.Body display="flex" flexDirection="column">
                  <NavLinks onNavigate={() => setOpen(false)} />
                  {footer && <Box mt="auto">{footer}</Box>}
                </Drawer.Body>
                <Drawer.CloseTrigger asChild>
                  <CloseButton size="sm" aria-label="Close menu" />
                </Drawer.CloseTrigger>
              </Drawer.Content>
            </Drawer.Positioner>
          </Portal>
        </Drawer.Root>
        <Brand />
        {account}
      </Flex>
    </>
  );
}
