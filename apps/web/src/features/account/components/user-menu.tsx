import { Avatar, Badge, Box, Menu, Portal, Text } from '@chakra-ui/react';
import { ROLE_LABELS } from '@cadre/contract';
import { useState, type ReactNode } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { FiBarChart2, FiDatabase, FiKey, FiLogOut, FiMonitor, FiMoon, FiSun } from 'react-icons/fi';
import { setColorModePreference, useColorModePreference, type ColorModePreference } from '@cadre/ui';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useMe } from '../../../lib/role';
import { YourDataDialog } from './your-data-dialog';

export interface MenuUser {
  name?: string;
  email?: string;
  /** The identity provider's `picture` claim (an image URL), when the profile has one. */
  picture?: string;
}

const THEMES: { value: ColorModePreference; label: string; icon: ReactNode }[] = [
  { value: 'light', label: 'Light', icon: <FiSun aria-hidden="true" /> },
  { value: 'dark', label: 'Dark', icon: <FiMoon aria-hidden="true" /> },
  { value: 'system', label: 'System', icon: <FiMonitor aria-hidden="true" /> },
];

/**
 * Who is signed in, in the shell's header: their picture (initials when there is none, or it
 * does not load) opens a menu with their name and email, the theme (light, dark or the system's,
 * remembered in this browser), "Usage", "API keys", "Your data" and "Log Out" (the sidebar's, by the spec's name).
 */
export function UserMenu({ user, onSignOut }: { user: MenuUser; onSignOut: () => Promise<void> }) {
  const theme = useColorModePreference();
  const navigate = useNavigate();
  const [dataOpen, setDataOpen] = useState(false);
  const [signingOut, setSigningOut] = useState<'asking' | 'pending' | null>(null);
  const label = user.name || user.email || 'Your account';
  const role = useMe().data?.role;

  async function signOut() {
    setSigningOut('pending');
    try {
      await onSignOut();
    } finally {
      setSigningOut(null);
    }
  }

  return (
    <>
      <Menu.Root
        positioning={{ placement: 'bottom-end' }}
        onSelect={(details) => {
          if (details.value === 'usage') void navigate({ to: '/usage' });
          if (details.value === 'api-keys') void navigate({ to: '/api-keys' });
          if (details.value === 'data') setDataOpen(true);
          if (details.value === 'sign-out') setSigningOut('asking');
        }}
      >
        <Menu.Trigger
          aria-label={`Account menu of ${label}`}
          rounded="full"
          focusRing="outside"
          cursor="pointer"
          flexShrink={0}
        >
          <Avatar.Root size="sm" colorPalette="brand" variant="solid">
            <Avatar.Fallback name={label} />
            {user.picture && <Avatar.Image src={user.picture} alt="" />}
          </Avatar.Root>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content minW="64" maxW="calc(100vw - 1rem)">
              <Box px="2" py="1.5" data-testid="user-menu-identity">
                <Text fontWeight="semibold" truncate>
                  {user.name || 'Signed in'}
                </Text>
                {user.email && (
                  <Text fontSize="sm" color="fg.muted" truncate>
                    {user.email}
                  </Text>
                )}
                {role && (
                  <Badge mt="1" size="sm" data-testid="user-menu-role">
                    {ROLE_LABELS[role]}
                  </Badge>
                )}
              </Box>
              <Menu.Separator />
              <Menu.RadioItemGroup
                value={theme}
                onValueChange={(details) => setColorModePreference(details.value as ColorModePreference)}
              >
                <Menu.ItemGroupLabel>Theme</Menu.ItemGroupLabel>
                {THEMES.map((item) => (
                  <Menu.RadioItem key={item.value} value={item.value}>
                    {item.icon}
                    <Menu.ItemText>{item.label}</Menu.ItemText>
                    <Menu.ItemIndicator />
                  </Menu.RadioItem>
                ))}
              </Menu.RadioItemGroup>
              <Menu.Separator />
              <Menu.Item value="usage">
                <FiBarChart2 aria-hidden="true" /> Usage
              </Menu.Item>
              <Menu.Item value="api-keys">
                <FiKey aria-hidden="true" /> API keys
              </Menu.Item>
              <Menu.Item value="data">
                <FiDatabase aria-hidden="true" /> Your data
              </Menu.Item>
              <Menu.Item value="sign-out">
                <FiLogOut aria-hidden="true" /> Log Out
              </Menu.Item>
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
      <YourDataDialog open={dataOpen} onClose={() => setDataOpen(false)} signOut={onSignOut} />
      <ConfirmDialog
        open={signingOut !== null}
        title="Logout Confirmation"
        message="Are you sure you want to log out?"
        confirmLabel="Logout"
        pending={signingOut === 'pending'}
        onConfirm={() => void signOut()}
        onCancel={() => setSigningOut(null)}
      />
    </>
  );
}
