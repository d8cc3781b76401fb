import { Center, Spinner } from '@chakra-ui/react';

/** Shown while a route loads for longer than the router's pending delay. */
export function Pending() {
  return (
    <Center minH="40vh" role="status" aria-busy="true" aria-label="Loading">
      <Spinner size="lg" color="brand.fg" />
    </Center>
  );
}
