import { Heading, HStack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import type { IconType } from 'react-icons';

/**
 * A screen's title (its h1, after the screen's icon when it has one) with the screen's actions
 * beside it, wrapping below on a narrow screen.
 */
export function PageHeader({
  title,
  icon: Icon,
  children,
}: {
  title: ReactNode;
  icon?: IconType;
  children?: ReactNode;
}) {
  return (
    <HStack justify="space-between" gap="3" wrap="wrap">
      <Heading as="h1" size="2xl">
        {Icon && <Icon aria-hidden style={{ display: 'inline', marginInlineEnd: '0.5rem' }} />}
        {title}
      </Heading>
      {children}
    </HStack>
  );
}
