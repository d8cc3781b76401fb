import { Field } from '@chakra-ui/react';
import type { FieldRules } from '@cadre/contract';
import { useId, type ReactNode } from 'react';

/**
 * A form field's root whose error and help text share one id. Chakra's field names its help text in
 * the input's `aria-describedby` but its error only in `aria-errormessage` (which screen readers
 * announce less); with one id for both, the error under the input is in both, and so read with it.
 * Its `FieldMessage` shows one or the other.
 */
export function FieldRoot(props: Field.RootProps) {
  const id = `${useId()}-message`;
  return <Field.Root {...props} ids={{ errorText: id, helperText: id, ...props.ids }} />;
}

/** The line under a field's input (inside a `FieldRoot`): its error when it has one, else its help. */
export function FieldMessage({ error, help }: { error?: string; help?: ReactNode }) {
  if (error) return <Field.ErrorText>{error}</Field.ErrorText>;
  return help ? <Field.HelperText>{help}</Field.HelperText> : null;
}

/**
 * A labelled form field: marked required when its contract rules say so, `aria-invalid` while it has
 * an error, and the error or help under it, tied to the input by `aria-describedby`.
 */
export function FormField(props: {
  label: ReactNode;
  rules?: FieldRules;
  error?: string;
  helperText?: ReactNode;
  children: ReactNode;
}) {
  return (
    <FieldRoot required={props.rules?.required} invalid={!!props.error}>
      <Field.Label>
        {props.label}
        {props.rules?.required && (
          <>
            {' '}
            <Field.RequiredIndicator />
          </>
        )}
      </Field.Label>
      {props.children}
      <FieldMessage error={props.error} help={props.helperText} />
    </FieldRoot>
  );
}
