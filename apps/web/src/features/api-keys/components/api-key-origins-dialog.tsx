import { Button, Stack, Text, Textarea } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { DialogShell } from '../../../components/form-dialog';
import { FormErrorsAlert } from '../../../components/form-errors-alert';
import { FormField } from '../../../components/form-field';
import { useFieldErrors } from '../../../lib/use-field-errors';
import { listApiKeysQueryKey, updateApiKeyMutation, type ApiKey } from '../api/api-keys-api';

export const KEY_ORIGINS_TEXT = {
  title: (name: string) => `Allowed origins of "${name}"`,
  intro:
    'Web pages on these origins may call the OpenAI-compatible API and the MCP servers with this key ' +
    'from the browser. Each origin exactly (https://app.example.com; http only for localhost), one a ' +
    'line. Leave it empty for calls from code only.',
  label: 'Origins',
  save: 'Save origins',
  failed: 'The origins could not be saved.',
} as const;

const FIELDS = ['allowed_origins'] as const;

/** Edits the web origins a key may be used from in a browser (CORS on the agent API). */
export function ApiKeyOriginsDialog({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<number | null>(null);
  const { ref, errors, showApiError, clear, reset } = useFieldErrors<(typeof FIELDS)[number], HTMLDivElement>(
    FIELDS,
  );
  const queryClient = useQueryClient();
  // The text starts from the key's list each time the dialog opens on a key.
  if (apiKey && editing !== apiKey.id) {
    setEditing(apiKey.id);
    setText(apiKey.allowed_origins.join('\n'));
  }
  function close() {
    setEditing(null);
    reset();
    save.reset();
    onClose();
  }
  const save = useMutation({
    ...updateApiKeyMutation(),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: listApiKeysQueryKey() });
      close();
    },
    onError: (error) => showApiError(error, KEY_ORIGINS_TEXT.failed),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!apiKey) return;
    const origins = text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    save.mutate({ path: { api_key_id: apiKey.id }, body: { allowed_origins: origins } });
  };
  return (
    <DialogShell
      open={apiKey !== null}
      onClose={close}
      title={KEY_ORIGINS_TEXT.title(apiKey?.name ?? '')}
      placement="center"
      onSubmit={submit}
      footer={
        <>
          <Button variant="outline" type="button" onClick={close} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" colorPalette="brand" loading={save.isPending}>
            {KEY_ORIGINS_TEXT.save}
          </Button>
        </>
      }
    >
      <Stack gap="4" ref={ref}>
        <Text color="fg.muted">{KEY_ORIGINS_TEXT.intro}</Text>
        <FormField label={KEY_ORIGINS_TEXT.label} error={errors.fields.allowed_origins}>
          <Textarea
            rows={4}
            value={text}
            placeholder="https://app.example.com"
            onChange={(event) => {
              setText(event.target.value);
              clear('allowed_origins');
            }}
          />
        </FormField>
        <FormErrorsAlert lines={errors.other} />
      </Stack>
    </DialogShell>
  );
}
