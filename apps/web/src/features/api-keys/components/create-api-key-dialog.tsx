import {
  Alert,
  Button,
  Checkbox,
  CheckboxGroup,
  Code,
  Field,
  Fieldset,
  Input,
  NativeSelect,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FiCheck, FiCopy } from 'react-icons/fi';
import { DialogShell } from '../../../components/form-dialog';
import { describeApiError } from '../../../api/api-error';
import {
  createApiKeyMutation,
  listAgentsOptions,
  listApiKeysQueryKey,
  SCOPES,
  type ApiKeyCreate,
  type ApiKeyScope,
} from '../api/api-keys-api';

export const CREATE_KEY_TEXT = {
  title: 'Create API key',
  name: 'Name',
  scopes: 'Scopes',
  agents: 'Agents',
  agentsHelp: 'Leave all unticked to allow every agent you have now and later.',
  expiry: 'Expires',
  submit: 'Create key',
  shownTitle: 'Your new API key',
  shownOnce: 'Copy the key now: it is shown only this once. Cadre keeps only a hash of it.',
  copy: 'Copy key',
  copied: 'Copied',
  done: 'Done',
} as const;

const EXPIRIES = [
  { value: '', label: 'Never' },
  ...[7, 30, 90].map((days) => ({ value: String(days), label: `In ${days} days` })),
  { value: '365', label: 'In a year' },
];

const EMPTY = { name: '', scopes: [] as ApiKeyScope[], agents: [] as string[], expiry: '30' };

/** Creates a key (name, scopes, agents, expiry), then shows it once with a copy button. */
export function CreateApiKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form, setForm] = useState(EMPTY);
  const [shown, setShown] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const queryClient = useQueryClient();
  const agents = useQuery({ ...listAgentsOptions(), enabled: open });
  const create = useMutation({
    ...createApiKeyMutation(),
    onSuccess: (created) => {
      setShown(created.key);
      void queryClient.invalidateQueries({ queryKey: listApiKeysQueryKey() });
    },
  });

  function close() {
    setForm(EMPTY);
    setShown(null);
    setCopied(false);
    create.reset();
    onClose();
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (shown) return;
    const body: ApiKeyCreate = { name: form.name.trim(), scopes: form.scopes };
    if (form.agents.length > 0) body.agent_ids = form.agents.map(Number);
    if (form.expiry) body.expires_at = new Date(Date.now() + Number(form.expiry) * 86_400_000).toISOString();
    create.mutate({ body });
  };

  // One dialog throughout: swapping to another once the key is shown would let the submit click
  // that created it count as a click outside the new one, closing it before the key is seen.
  return (
    <DialogShell
      open={open}
      onClose={close}
      title={shown ? CREATE_KEY_TEXT.shownTitle : CREATE_KEY_TEXT.title}
      placement="center"
      onSubmit={submit}
      footer={
        shown ? (
          <Button type="button" onClick={close}>
            {CREATE_KEY_TEXT.done}
          </Button>
        ) : (
          <>
            <Button variant="outline" type="button" onClick={close} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" colorPalette="brand" loading={create.isPending}>
              {CREATE_KEY_TEXT.submit}
            </Button>
          </>
        )
      }
    >
      {shown ? (
        <Stack gap="3">
          <Text>{CREATE_KEY_TEXT.shownOnce}</Text>
          <Code data-testid="new-api-key" p="2" wordBreak="break-all">
            {shown}
          </Code>
          <Button
            variant="outline"
            size="sm"
            alignSelf="start"
            onClick={() => void navigator.clipboard.writeText(shown).then(() => setCopied(true))}
          >
            {copied ? <FiCheck aria-hidden="true" /> : <FiCopy aria-hidden="true" />}
            {copied ? CREATE_KEY_TEXT.copied : CREATE_KEY_TEXT.copy}
          </Button>
        </Stack>
      ) : (
        <Stack gap="4">
          <Field.Root required>
            <Field.Label>{CREATE_KEY_TEXT.name}</Field.Label>
            <Input
              maxLength={100}
              value={form.name}
              onChange={(event) => setForm({ ...form, name: event.target.value })}
            />
          </Field.Root>
          <Fieldset.Root>
            <Fieldset.Legend>{CREATE_KEY_TEXT.scopes}</Fieldset.Legend>
            <CheckboxGroup
              value={form.scopes}
              onValueChange={(scopes) => setForm({ ...form, scopes: scopes as ApiKeyScope[] })}
            >
              <CheckboxOptions options={SCOPES} />
            </CheckboxGroup>
          </Fieldset.Root>
          <Fieldset.Root>
            <Fieldset.Legend>{CREATE_KEY_TEXT.agents}</Fieldset.Legend>
            <Fieldset.HelperText>{CREATE_KEY_TEXT.agentsHelp}</Fieldset.HelperText>
            <CheckboxGroup value={form.agents} onValueChange={(ids) => setForm({ ...form, agents: ids })}>
              <CheckboxOptions
                options={(agents.data ?? []).map((agent) => ({ value: String(agent.id), label: agent.name }))}
              />
            </CheckboxGroup>
          </Fieldset.Root>
          <Field.Root>
            <Field.Label>{CREATE_KEY_TEXT.expiry}</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field
                value={form.expiry}
                onChange={(event) => setForm({ ...form, expiry: event.target.value })}
              >
                {EXPIRIES.map((e) => (
                  <option key={e.value} value={e.value}>
                    {e.label}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
          {create.isError && (
            <Alert.Root status="error" role="alert">
              <Alert.Indicator />
              <Alert.Content>
                {describeApiError(create.error, 'The key could not be created.').map((line) => (
                  <Alert.Description key={line}>{line}</Alert.Description>
                ))}
              </Alert.Content>
            </Alert.Root>
          )}
        </Stack>
      )}
    </DialogShell>
  );
}

/** One checkbox per option, inside a CheckboxGroup that holds the checked values. */
function CheckboxOptions({ options }: { options: readonly { value: string; label: string }[] }) {
  return options.map((option) => (
    <Checkbox.Root key={option.value} value={option.value}>
      <Checkbox.HiddenInput />
      <Checkbox.Control />
      <Checkbox.Label>{option.label}</Checkbox.Label>
    </Checkbox.Root>
  ));
}
