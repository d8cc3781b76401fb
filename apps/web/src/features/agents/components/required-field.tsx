import { Field } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** A field the form cannot be saved without: its label marked required, its error below it. */
export function RequiredField(props: {
  label: string;
  invalid: boolean;
  error: string;
  children: ReactNode;
}) {
  return (
    <Field.Root required invalid={props.invalid}>
      <Field.Label>
        {props.label} <Field.RequiredIndicator />
      </Field.Label>
      {props.children}
      <Field.ErrorText>{props.error}</Field.ErrorText>
    </Field.Root>
  );
}
