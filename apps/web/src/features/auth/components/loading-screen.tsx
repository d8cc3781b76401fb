import { Center, Text } from '@chakra-ui/react';

/** What the protected shell shows while sign-in is being checked or completed (spec section 2). */
export function LoadingScreen() {
  return (
    <Center minH="100vh" aria-busy="true">
      <Text>Loading...</Text>
    </Center>
  );
}
