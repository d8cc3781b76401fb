import { Box, Code, Heading, List, Text } from '@chakra-ui/react';

/** Shown instead of the app when the runtime configuration is missing or does not match the schema. */
export function ConfigErrorScreen({ problems }: { problems: string[] }) {
  return (
    <Box as="main" maxW="2xl" mx="auto" px="6" py="16" role="alert">
      <Heading as="h1" size="2xl" mb="3">
        Cadre cannot start
      </Heading>
      <Text mb="4">
        The runtime configuration this server sent is invalid. Fix these settings on the server and reload the
        page:
      </Text>
      <List.Root gap="2" ps="5" data-testid="config-problems">
        {problems.map((problem) => (
          <List.Item key={problem}>
            <Code colorPalette="red">{problem}</Code>
          </List.Item>
        ))}
      </List.Root>
      <Text mt="6" color="fg.muted" fontSize="sm">
        Every setting and its default is listed in docs/configuration.md.
      </Text>
    </Box>
  );
}
