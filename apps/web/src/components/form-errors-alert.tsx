import { Alert } from '@chakra-ui/react';

/**
 * A form's refusal that no field owns (the `other` part of `formErrors`), one line per reason, in an
 * alert screen readers announce; nothing when there is none.
 */
export function FormErrorsAlert({ lines }: { lines: string[] }) {
  if (lines.length === 0) return null;
  return (
    <Alert.Root status="error" role="alert">
      <Alert.Indicator />
      <Alert.Content>
        {lines.map((line) => (
          <Alert.Description key={line}>{line}</Alert.Description>
        ))}
      </Alert.Content>
    </Alert.Root>
  );
}
