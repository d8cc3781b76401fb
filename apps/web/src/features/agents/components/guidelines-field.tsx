import { chakra, Field, Portal, Text, Textarea, Tooltip } from '@chakra-ui/react';
import { FiInfo } from 'react-icons/fi';
import { AGENT_RULES } from '../agents-logic';
import { AGENT_TEXT } from '../constants';
import { FieldMessage, FieldRoot } from '../../../components/form-field';

/** The agent's guidelines (optional), with a tooltip saying what they are for. */
export function GuidelinesField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  /** The server's refusal of the guidelines (a 422 naming them). */
  error?: string;
}) {
  return (
    <FieldRoot invalid={!!error}>
      <Field.Label>
        Guidelines
        <Text as="span" color="fg.muted" fontWeight="normal">
          (optional)
        </Text>
        <Tooltip.Root openDelay={200}>
          <Tooltip.Trigger asChild>
            <chakra.button
              type="button"
              aria-label={AGENT_TEXT.guidelinesTooltip}
              color="fg.muted"
              display="inline-flex"
              rounded="full"
              focusRing="outside"
            >
              <FiInfo aria-hidden="true" />
            </chakra.button>
          </Tooltip.Trigger>
          <Portal>
            <Tooltip.Positioner>
              <Tooltip.Content maxW="xs">{AGENT_TEXT.guidelinesTooltip}</Tooltip.Content>
            </Tooltip.Positioner>
          </Portal>
        </Tooltip.Root>
      </Field.Label>
      <Textarea {...AGENT_RULES.guidelines} value={value} onChange={onChange} rows={5} autoresize />
      <FieldMessage error={error} />
    </FieldRoot>
  );
}
