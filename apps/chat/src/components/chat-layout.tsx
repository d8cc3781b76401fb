import { Box, Flex } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/**
 * The thread list beside the chat on wide screens (the frame) or in a drawer over it (narrow
 * screens, and always in the copilot), and the chat's column: its header, then what it shows.
 */
export function ChatLayout({
  drawerOnly,
  list,
  drawer,
  onCloseDrawer,
  header,
  children,
}: {
  drawerOnly: boolean;
  list: ReactNode;
  drawer: boolean;
  onCloseDrawer: () => void;
  header: ReactNode;
  children: ReactNode;
}) {
  return (
    <Flex h="full" minH="0" position="relative" bg="bg" color="fg">
      {!drawerOnly && (
        <Box
          w="64"
          flexShrink={0}
          borderEndWidth="1px"
          display={{ base: 'none', md: 'block' }}
          bg="bg.subtle"
          data-testid="thread-panel"
        >
          {list}
        </Box>
      )}
      {drawer && (
        <>
          <Box
            position="absolute"
            inset="0"
            bg="blackAlpha.500"
            zIndex="overlay"
            onClick={onCloseDrawer}
            aria-hidden
          />
          <Box
            position="absolute"
            top="0"
            bottom="0"
            left="0"
            w="72"
            maxW="85%"
            bg="bg.panel"
            zIndex="modal"
            borderEndWidth="1px"
            role="dialog"
            aria-label="Conversations"
            data-testid="thread-drawer"
          >
            {list}
          </Box>
        </>
      )}
      <Flex direction="column" flex="1" minW="0" minH="0">
        {header}
        {children}
      </Flex>
    </Flex>
  );
}
