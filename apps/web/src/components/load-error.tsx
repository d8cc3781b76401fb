import { Alert, Button, HStack, Stack } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/**
 * Something a screen needed could not be loaded: what failed, why when known, and the ways on (a
 * retry when trying again can help, plus whatever links the screen adds).
 */
export function LoadError(props: {
  title: string;
  description?: ReactNode;
  /** 'warning' for a state that retrying will not change (a missing agent). */
  status?: 'error' | 'warning';
  onRetry?: () => void;
  retrying?: boolean;
  retryLabel?: string;
  /** Further ways on, beside the retry button. */
  children?: ReactNode;
}) {
  return (
    <Stack gap="4">
      <Alert.Root status={props.status ?? 'error'}>
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{props.title}</Alert.Title>
          {props.description && <Alert.Description>{props.description}</Alert.Description>}
        </Alert.Content>
      </Alert.Root>
      {(props.onRetry || props.children) && (
        <HStack gap="3" flexWrap="wrap">
          {props.onRetry && (
            <Button colorPalette="brand" onClick={props.onRetry} loading={props.retrying}>
              {props.retryLabel ?? 'Try again'}
            </Button>
          )}
          {props.children}
        </HStack>
      )}
    </Stack>
  );
}
