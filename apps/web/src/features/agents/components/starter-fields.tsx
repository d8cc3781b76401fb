import { Field, Input, Stack, Text } from '@chakra-ui/react';
import { MAX_STARTER_LENGTH, starterError } from '../agents-logic';
import { AGENT_TEXT } from '../constants';
import { FieldMessage, FieldRoot } from '../../../components/form-field';

/**
 * The conversation starters the empty chat offers (optional): each with its own error as it is
 * typed or as the server gave it (`serverErrors` by index, or `all`), and a count near the limit.
 */
export function StarterFields({
  starters,
  serverErrors,
  onChange,
}: {
  starters: string[];
  serverErrors: Record<string, string>;
  onChange: (index: number) => (event: { target: { value: string } }) => void;
}) {
  return (
    <Stack as="fieldset" gap="2">
      <Text as="legend" fontWeight="medium" fontSize="sm" mb="2">
        {AGENT_TEXT.starters}{' '}
        <Text as="span" color="fg.muted" fontWeight="normal">
          (optional)
        </Text>
      </Text>
      <Text fontSize="sm" color="fg.muted">
        {AGENT_TEXT.startersHelp}
      </Text>
      {serverErrors.all && (
        <Text fontSize="sm" color="fg.error" role="alert">
          {serverErrors.all}
        </Text>
      )}
      {starters.map((starter, index) => {
        const error = starterError(starter) ?? serverErrors[String(index)];
        return (
          <FieldRoot key={index} invalid={error !== undefined}>
            <Field.Label srOnly>{AGENT_TEXT.starterLabel(index + 1)}</Field.Label>
            <Input
              value={starter}
              onChange={onChange(index)}
              placeholder={AGENT_TEXT.starterPlaceholder(index + 1)}
              autoComplete="off"
            />
            <FieldMessage
              error={error}
              help={
                starter.length > MAX_STARTER_LENGTH - 20 && `${starter.trim().length}/${MAX_STARTER_LENGTH}`
              }
            />
          </FieldRoot>
        );
      })}
    </Stack>
  );
}
