import { Button, Flex, Heading, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';

/** The screen for any unknown path (spec section 2). */
export function NotFound() {
  return (
    <Flex as="main" direction="column" align="center" justify="center" minH="100vh" gap="3" px="6">
      <Heading as="h1" fontSize={{ base: '7xl', md: '9xl' }} lineHeight="1" color="brand.fg">
        404
      </Heading>
      <Text fontSize="2xl" fontWeight="bold">
        Oops!
      </Text>
      <Text color="fg.muted">Page not found.</Text>
      <Button asChild variant="outline" mt="4">
        <Link to="/">Go back</Link>
      </Button>
    </Flex>
  );
}
