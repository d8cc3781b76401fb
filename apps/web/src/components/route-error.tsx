import { Box, Button, Code, Flex, Heading } from '@chakra-ui/react';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { useState } from 'react';

/** The default route error screen (spec section 2): a message and a toggle that reveals the error. */
export function RouteError({ error }: ErrorComponentProps) {
  const [shown, setShown] = useState(false);
  return (
    <Flex as="main" direction="column" align="center" justify="center" minH="60vh" gap="4" px="6">
      <Heading as="h1" size="xl">
        Something went wrong!
      </Heading>
      <Button size="sm" variant="outline" onClick={() => setShown((s) => !s)} aria-expanded={shown}>
        {shown ? 'Hide Error' : 'Show Error'}
      </Button>
      {shown && (
        <Box maxW="2xl" w="full">
          <Code
            display="block"
            whiteSpace="pre-wrap"
            p="3"
            colorPalette="red"
            data-testid="route-error-message"
          >
            {error instanceof Error ? error.message : String(error)}
          </Code>
        </Box>
      )}
    </Flex>
  );
}
