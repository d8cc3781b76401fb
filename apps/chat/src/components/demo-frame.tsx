import { Box, Button, Flex, Link, Stack, Text } from '@chakra-ui/react';
import { DEMOS, demoStartPath } from '@cadre/contract';
import type { ReactNode } from 'react';

/** A public demo's chat (the frame at /demos), under the demo's way back and way on. */
export function DemoFrame({ children }: { children: ReactNode }) {
  return (
    <Flex direction="column" h="full" minH="0">
      <DemoBar />
      <Box flex="1" minH="0">
        {children}
      </Box>
    </Flex>
  );
}

/** A demo's way back (to Cadre) and next step (an agent of one's own), above the chat. */
function DemoBar() {
  return (
    <Flex
      as="nav"
      aria-label="Demo"
      px="3"
      py="1.5"
      columnGap="4"
      rowGap="1"
      wrap="wrap"
      align="center"
      justify="space-between"
      fontSize="sm"
      bg="brand.subtle"
      borderBottomWidth="1px"
    >
      <Link href="/" color="brand.fg">
        ← Back to Cadre
      </Link>
      {/* On a phone the two links need the row; the sample data is evident from the chat. */}
      <Text color="fg.muted" flex="1" minW="0" display={{ base: 'none', sm: 'block' }}>
        You are trying a demo with sample data.
      </Text>
      <Link href="/agents/create" color="brand.fg" fontWeight="semibold">
        Build your own agent →
      </Link>
    </Flex>
  );
}

/** A demo session that ended: start a demo again, or go to Cadre. */
export function DemoEnded() {
  return (
    <Flex h="full" align="center" justify="center" p="6" data-testid="session-ended">
      <Stack textAlign="center" gap="3" maxW="sm">
        <Text fontWeight="semibold">Your demo session has ended</Text>
        <Text color="fg.muted" fontSize="sm">
          Demo sessions end after a while without use, and their sample data is deleted. Start a demo again:
        </Text>
        <Stack as="nav" aria-label="Demos" gap="2">
          {DEMOS.map((item) => (
            <Button key={item.name} asChild size="sm" variant="outline">
              <a href={demoStartPath(item.name)}>Try the {item.title} demo</a>
            </Button>
          ))}
        </Stack>
        <Link href="/" color="brand.fg" alignSelf="center" fontSize="sm">
          Sign up to build your own agent
        </Link>
        <Link href="/" color="brand.fg" alignSelf="center" fontSize="sm">
          ← Back to Cadre
        </Link>
      </Stack>
    </Flex>
  );
}
