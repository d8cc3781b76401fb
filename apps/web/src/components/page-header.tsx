import { Heading, HStack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import type { IconType } from 'react-icons';

/**
 * A screen's title (its h1, after the screen's icon when it has one) with the screen's actions
 * beside it, wrapping below on a narrow screen, and the sentence that says what the screen is for.
 * A fragment: the screen's stack spaces the header and the sentence like its other parts.
 */
export function PageHeader({
  title,
  icon: Icon,
  intro,
  children,
}: {
  title: ReactNode;
  icon?: IconType;
  intro?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <>
      <HStack justify="space-between" gap="3" wrap="wrap">
        <Heading as="h1" size="2xl">
          {Icon && <Icon aria-hidden style={{ display: 'inline', marginInlineEnd: '0.5rem' }} />}
          {title}
        </Heading>
        {children}
      </HStack>
      {intro && (
        <Text color="fg.muted" maxW="3xl">
          {intro}
        </Text>
      )}
    </>
  );
}
