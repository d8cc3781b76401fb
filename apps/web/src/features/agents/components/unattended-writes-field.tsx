import { Checkbox, Stack, Text } from '@chakra-ui/react';
import { UNATTENDED_WRITES_SETTING } from '@cadre/contract';
import { useId } from 'react';
import { TRIGGER_TEXT } from '../constants';

/** "Allow write actions in unattended runs": saved with the form, off by default, audited by the server. */
export function UnattendedWritesField(props: { checked: boolean; onChange: (checked: boolean) => void }) {
  const helpId = useId();
  return (
    <Stack gap="1">
      <Checkbox.Root
        checked={props.checked}
        onCheckedChange={(event) => props.onChange(event.checked === true)}
      >
        <Checkbox.HiddenInput aria-describedby={helpId} />
        <Checkbox.Control />
        <Checkbox.Label>{UNATTENDED_WRITES_SETTING}</Checkbox.Label>
      </Checkbox.Root>
      <Text id={helpId} fontSize="sm" color="fg.muted">
        {TRIGGER_TEXT.unattendedWritesHelp}
      </Text>
    </Stack>
  );
}
