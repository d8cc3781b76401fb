import { Heading, HStack } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** A screen's title (its h1) with the screen's actions beside it, wrapping below on a narrow screen. */
export function PageHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <HStack justify="space-between" gap="3" wrap="wrap">
      <Heading as="h1" size="2xl">
        {title}
      </Heading>
      {children}
    </HStack>
  );
}
