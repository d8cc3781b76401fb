import { Checkbox, Field, Stack, Text } from '@chakra-ui/react';
import {
  API_WRITES,
  API_WRITES_CHOICES,
  API_WRITES_SETTING,
  UNATTENDED_WRITES_SETTING,
  type ApiWrites,
} from '@cadre/contract';
import { useId } from 'react';
import { Select } from '../../../components/select';
import { TRIGGER_TEXT } from '../constants';

export interface WriteSettingsFieldsProps {
  /** "Allow write actions in unattended runs": a trigger's run writes without approval. */
  unattended: boolean;
  /** "Write actions asked through the API or MCP": wait for approval, or refused. */
  apiWrites: ApiWrites;
  onChange: (change: { unattended?: boolean; apiWrites?: ApiWrites }) => void;
}

/**
 * What the agent's write and send tools do in runs nobody watches in Cadre's chat, one setting for
 * trigger runs and one for API and MCP callers, so either may ask while the other refuses. Saved
 * with the form; the server audits each change.
 */
export function WriteSettingsFields({ unattended, apiWrites, onChange }: WriteSettingsFieldsProps) {
  const helpId = useId();
  return (
    <Stack gap="4">
      <Stack gap="1">
        <Checkbox.Root
          checked={unattended}
          onCheckedChange={(event) => onChange({ unattended: event.checked === true })}
        >
          <Checkbox.HiddenInput aria-describedby={helpId} />
          <Checkbox.Control />
          <Checkbox.Label>{UNATTENDED_WRITES_SETTING}</Checkbox.Label>
        </Checkbox.Root>
        <Text id={helpId} fontSize="sm" color="fg.muted">
          {TRIGGER_TEXT.unattendedWritesHelp}
        </Text>
      </Stack>
      <Field.Root>
        <Field.Label>{API_WRITES_SETTING}</Field.Label>
        <Select
          maxW="sm"
          value={apiWrites}
          options={API_WRITES.map((mode) => ({ value: mode, label: API_WRITES_CHOICES[mode] }))}
          onChange={(mode) => onChange({ apiWrites: mode })}
        />
        <Field.HelperText>{TRIGGER_TEXT.apiWritesHelp}</Field.HelperText>
      </Field.Root>
    </Stack>
  );
}
