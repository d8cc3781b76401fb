import { Button, Checkbox, CheckboxGroup, Code, Fieldset, Input, Stack, Text } from '@chakra-ui/react';
import { apiKeyCreateSchema, formRules, idempotencyHeaders } from '@cadre/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FiCheck, FiCopy } from 'react-icons/fi';
import { DialogShell } from '../../../components/form-dialog';
import { FormErrorsAlert } from '../../../components/form-errors-alert';
import { FormField } from '../../../components/form-field';
import { Select } from '../../../components/select';
import { useFieldErrors } from '../../../lib/use-field-errors';
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
  failed: 'The key could not be created.',
  nameRequired: 'Give the key a name, to tell it apart later.',
  scopesRequired: 'Choose at least one scope.',
} as const;

const EXPIRIES = [
  { value: '', label: 'Never' },
  ...[7, 30, 90].map((days) => ({ value: String(days), label: `In ${days} days` })),
  { value: '365', label: 'In a year' },
];

const EMPTY = { name: '', scopes: [] as ApiKeyScope[], agents: [] as string[], expiry: '30' };
const FIELDS = ['name', 'scopes', 'agent_ids', 'expires_at'] as const;
const RULES = formRules(apiKeyCreateSchema);

/** Creates a key (name, scopes, agents, expiry), then shows it once with a copy button. */
export function CreateApiKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form, setForm] = useState(EMPTY);
  const [shown, setShown] = useState<string | null>(null);
  // Each message under the field it is about: a blank name or no scope, or the API's refusal.
  const { ref, errors, showApiError, mark, clear, reset } = useFieldErrors<
    (typeof FIELDS)[number],
    HTMLDivElement
  >(FIELDS);
  const queryClient = useQueryClient();
  const agents = useQuery({ ...listAgentsOptions(), enabled: open });
  const create = useMutation({
    ...createApiKeyMutation(),
    onSuccess: (created) => {
      setShown(created.key);
      void queryClient.invalidateQueries({ queryKey: listApiKeysQueryKey() });
    },
    onError: (error) => showApiError(error, CREATE_KEY_TEXT.failed),
  });
  const edit = (change: Partial<typeof EMPTY>, field: (typeof FIELDS)[number]) => {
    setForm({ ...form, ...change });
    clear(field);
  };

  function close() {
    setForm(EMPTY);
    setShown(null);
    reset();
    create.reset();
    onClose();
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (shown) return;
    const body: ApiKeyCreate = { name: form.name.trim(), scopes: form.scopes };
    if (form.agents.length > 0) body.agent_ids = form.agents.map(Number);
    if (form.expiry) body.expires_at = new Date(Date.now() + Number(form.expiry) * 86_400_000).toISOString();
    const missing = {
      name: body.name ? undefined : CREATE_KEY_TEXT.nameRequired,
      scopes: body.scopes.length > 0 ? undefined : CREATE_KEY_TEXT.scopesRequired,
    };
    if (!mark(missing)) create.mutate({ body, headers: idempotencyHeaders() });
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
        <NewApiKey apiKey={shown} />
      ) : (
        <Stack gap="4" ref={ref}>
          <FormField label={CREATE_KEY_TEXT.name} rules={RULES.name} error={errors.fields.name}>
            <Input
              {...RULES.name}
              value={form.name}
              onChange={(event) => edit({ name: event.target.value }, 'name')}
            />
          </FormField>
          <Fieldset.Root invalid={!!errors.fields.scopes}>
            <Fieldset.Legend>{CREATE_KEY_TEXT.scopes}</Fieldset.Legend>
            <CheckboxGroup
              value={form.scopes}
              onValueChange={(scopes) => edit({ scopes: scopes as ApiKeyScope[] }, 'scopes')}
            >
              <CheckboxOptions options={SCOPES} invalid={!!errors.fields.scopes} />
            </CheckboxGroup>
            <Fieldset.ErrorText>{errors.fields.scopes}</Fieldset.ErrorText>
          </Fieldset.Root>
          <Fieldset.Root invalid={!!errors.fields.agent_ids}>
            <Fieldset.Legend>{CREATE_KEY_TEXT.agents}</Fieldset.Legend>
            <Fieldset.HelperText>{CREATE_KEY_TEXT.agentsHelp}</Fieldset.HelperText>
            <CheckboxGroup value={form.agents} onValueChange={(ids) => edit({ agents: ids }, 'agent_ids')}>
              <CheckboxOptions
                options={(agents.data ?? []).map((agent) => ({ value: String(agent.id), label: agent.name }))}
                invalid={!!errors.fields.agent_ids}
              />
            </CheckboxGroup>
            <Fieldset.ErrorText>{errors.fields.agent_ids}</Fieldset.ErrorText>
          </Fieldset.Root>
          <FormField label={CREATE_KEY_TEXT.expiry} error={errors.fields.expires_at}>
            <Select
              value={form.expiry}
              options={EXPIRIES}
              onChange={(expiry) => edit({ expiry }, 'expires_at')}
            />
          </FormField>
          <FormErrorsAlert lines={errors.other} />
        </Stack>
      )}
    </DialogShell>
  );
}

/** The key just created, shown this once, with a button copying it. */
function NewApiKey({ apiKey }: { apiKey: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Stack gap="3">
      <Text>{CREATE_KEY_TEXT.shownOnce}</Text>
      <Code data-testid="new-api-key" p="2" wordBreak="break-all">
        {apiKey}
      </Code>
      <Button
        variant="outline"
        size="sm"
        alignSelf="start"
        onClick={() => void navigator.clipboard.writeText(apiKey).then(() => setCopied(true))}
      >
        {copied ? <FiCheck aria-hidden="true" /> : <FiCopy aria-hidden="true" />}
        {copied ? CREATE_KEY_TEXT.copied : CREATE_KEY_TEXT.copy}
      </Button>
    </Stack>
  );
}

/** One checkbox per option, inside a CheckboxGroup that holds the checked values. */
function CheckboxOptions({
  options,
  invalid,
}: {
  options: readonly { value: string; label: string }[];
  invalid: boolean;
}) {
  return options.map((option) => (
    <Checkbox.Root key={option.value} value={option.value} invalid={invalid}>
      <Checkbox.HiddenInput />
      <Checkbox.Control />
      <Checkbox.Label>{option.label}</Checkbox.Label>
    </Checkbox.Root>
  ));
}
