import { Flex } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/**
 * The height of the shell's top bar: the desktop header and the small screens' menu bar are the
 * same, so a page filling the rest of the screen (the chat) subtracts one figure.
 */
export const SHELL_BAR_HEIGHT = '57px';

/** From md up, the bar above the page holding the account menu; small screens have it in their menu bar. */
export function DesktopHeader({ children }: { children: ReactNode }) {
  return (
    <Flex
      as="header"
      display={{ base: 'none', md: 'flex' }}
      h={SHELL_BAR_HEIGHT}
      flexShrink={0}
      align="center"
      justify="flex-end"
      gap="3"
      px="8"
      borderBottomWidth="1px"
    >
      {children}
    </Flex>
  );
}
