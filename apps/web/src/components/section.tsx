import { Heading, Stack, Text, type StackProps } from '@chakra-ui/react';
import { useId, type ReactNode } from 'react';

/**
 * A titled part of a page: a section named by its h2 (for assistive technology), an optional hint
 * under the heading, then the content.
 */
export function Section({
  title,
  hint,
  headingSize = 'lg',
  children,
  ...stack
}: { title: ReactNode; hint?: ReactNode; headingSize?: 'md' | 'lg'; children: ReactNode } & StackProps) {
  const headingId = useId();
  return (
    <Stack as="section" gap="3" aria-labelledby={headingId} {...stack}>
      <Heading as="h2" size={headingSize} id={headingId}>
        {title}
      </Heading>
      {hint && (
        <Text fontSize="sm" color="fg.muted">
          {hint}
        </Text>
      )}
      {children}
    </Stack>
  );
}
