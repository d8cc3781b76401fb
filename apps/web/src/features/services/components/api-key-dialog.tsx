import { Field, Input } from '@chakra-ui/react';
import { useRef, useState, type FormEvent } from 'react';
import { formErrors } from '../../../api/api-error';
import { FormDialog } from '../../../components/form-dialog';
import { toaster } from '../../../components/ui/toaster';
import { SERVICE_TEXT, SERVICE_TOAST_DURATION, SERVICE_TOASTS } from '../constants';
import { FieldMessage, FieldRoot } from '../../../components/form-field';
import { apiKeyBodySchema, formRules } from '@cadre/contract';

const API_KEY_RULES = formRules(apiKeyBodySchema).api_key;

interface ApiKeyDialogProps {
  open: boolean;
  serviceName: string;
  disabled: boolean;
  /** Saves the key; the dialog closes once it resolves and stays open with the reason if it rejects. */
  onSubmit: (apiKey: string) => Promise<unknown> | undefined;
  onClose: () => void;
}

/**
 * The 'Enter API Key' dialog (spec sections 2 and 5): the key is trimmed and must not be empty.
 * The server checks the key with its provider before saving it, so a refused key keeps the dialog
 * open with the provider's refusal under the field.
 */
export function ApiKeyDialog({ open, serviceName, disabled, onSubmit, onClose }: ApiKeyDialogProps) {
  const [apiKey, setApiKey] = useState('');
  // Set when a submit found the key blank; typing clears it.
  const [missing, setMissing] = useState(false);
  // Why the server did not save the key (the provider refused it, or could not be asked).
  const [refusal, setRefusal] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const close = () => {
    setApiKey('');
    setMissing(false);
    setRefusal(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = apiKey.trim();
    if (!trimmed) {
      setMissing(true);
      input.current?.focus();
      toaster.create({ ...SERVICE_TOASTS.apiKeyRequired, type: 'error', duration: SERVICE_TOAST_DURATION });
      return;
    }
    setRefusal(null);
    try {
      await onSubmit(trimmed);
    } catch (error) {
      const errors = formErrors(error, ['api_key'], 'The key was not saved.');
      setRefusal(errors.fields.api_key ?? errors.other.join(' '));
      input.current?.focus();
      return;
    }
    close();
  };

  return (
    <FormDialog
      open={open}
      onClose={close}
      title={SERVICE_TEXT.apiKeyTitle}
      onSubmit={(event) => void submit(event)}
      submitLabel={SERVICE_TEXT.submit}
      cancelLabel={SERVICE_TEXT.cancel}
      disabled={disabled}
    >
      <FieldRoot invalid={missing || refusal !== null}>
        <Field.Label>API Key for {serviceName}</Field.Label>
        <Input
          ref={input}
          type="password"
          autoComplete="off"
          maxLength={API_KEY_RULES.maxLength}
          value={apiKey}
          onChange={(event) => {
            setApiKey(event.target.value);
            if (event.target.value.trim()) setMissing(false);
            setRefusal(null);
          }}
        />
        <FieldMessage error={refusal ?? (missing ? `Enter the key ${serviceName} gave you.` : undefined)} />
      </FieldRoot>
    </FormDialog>
  );
}
