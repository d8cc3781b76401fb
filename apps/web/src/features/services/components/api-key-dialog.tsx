import { Field, Input } from '@chakra-ui/react';
import { useRef, useState, type FormEvent } from 'react';
import { FormDialog } from '../../../components/form-dialog';
import { toaster } from '../../../components/ui/toaster';
import { SERVICE_TEXT, SERVICE_TOAST_DURATION, SERVICE_TOASTS } from '../constants';

interface ApiKeyDialogProps {
  open: boolean;
  serviceName: string;
  disabled: boolean;
  onSubmit: (apiKey: string) => void;
  onClose: () => void;
}

/** The 'Enter API Key' dialog (spec sections 2 and 5): the key is trimmed and must not be empty. */
export function ApiKeyDialog({ open, serviceName, disabled, onSubmit, onClose }: ApiKeyDialogProps) {
  const [apiKey, setApiKey] = useState('');
  // Set when a submit found the key blank; typing clears it.
  const [missing, setMissing] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const close = () => {
    setApiKey('');
    setMissing(false);
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = apiKey.trim();
    if (!trimmed) {
      setMissing(true);
      input.current?.focus();
      toaster.create({ ...SERVICE_TOASTS.apiKeyRequired, type: 'error', duration: SERVICE_TOAST_DURATION });
      return;
    }
    onSubmit(trimmed);
    close();
  };

  return (
    <FormDialog
      open={open}
      onClose={close}
      title={SERVICE_TEXT.apiKeyTitle}
      onSubmit={submit}
      submitLabel={SERVICE_TEXT.submit}
      cancelLabel={SERVICE_TEXT.cancel}
      disabled={disabled}
    >
      <Field.Root invalid={missing}>
        <Field.Label>API Key for {serviceName}</Field.Label>
        <Input
          ref={input}
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={(event) => {
            setApiKey(event.target.value);
            if (event.target.value.trim()) setMissing(false);
          }}
        />
        <Field.ErrorText>Enter the key {serviceName} gave you.</Field.ErrorText>
      </Field.Root>
    </FormDialog>
  );
}
