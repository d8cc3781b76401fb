import { Button, CloseButton, Dialog, Field, Input, Portal } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
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

  const close = () => {
    setApiKey('');
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = apiKey.trim();
    if (!trimmed) {
      toaster.create({ ...SERVICE_TOASTS.apiKeyRequired, type: 'error', duration: SERVICE_TOAST_DURATION });
      return;
    }
    onSubmit(trimmed);
    close();
  };

  return (
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && close()} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content as="form" onSubmit={submit} aria-describedby={undefined}>
            <Dialog.Header>
              <Dialog.Title>{SERVICE_TEXT.apiKeyTitle}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Field.Root>
                <Field.Label>API Key for {serviceName}</Field.Label>
                <Input
                  type="password"
                  autoComplete="off"
                  value={apiKey}
                  onChange={(event) => setApiKey(event.target.value)}
                />
              </Field.Root>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" type="button" onClick={close} disabled={disabled}>
                {SERVICE_TEXT.cancel}
              </Button>
              <Button type="submit" colorPalette="brand" disabled={disabled}>
                {SERVICE_TEXT.submit}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
