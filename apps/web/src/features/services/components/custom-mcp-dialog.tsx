import { Field, Input, Stack, Text } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { formErrors, type FormErrors } from '../../../api/api-error';
import { FormErrorsAlert } from '../../../components/form-errors-alert';
import { FormDialog } from '../../../components/form-dialog';
import { toaster } from '../../../components/ui/toaster';
import { useFocusFirstInvalid } from '../../../lib/focus-invalid';
import { addCustomMcpServer, refreshServices, type CustomMcpServer } from '../api/services-api';
import { SERVICE_TOAST_DURATION } from '../constants';

export const CUSTOM_MCP_TEXT = {
  open: 'Add your own MCP server',
  title: 'Add your own MCP server',
  intro:
    'Connect a remote MCP server (Streamable HTTP) of your own. Its tools become a service only you can see.',
  name: 'Name',
  url: 'Server URL (https)',
  headerName: 'Header name (optional)',
  headerValue: 'Header value (optional)',
  submit: 'Add Server',
  cancel: 'Cancel',
  added: (name: string) => ({
    title: 'MCP Server Added',
    description: `"${name}" is now an active service.`,
  }),
  failed: 'The server could not be added.',
  nameRequired: 'Give the server a name.',
  urlRequired: 'Enter the address of the server.',
} as const;

const EMPTY = { name: '', url: '', header_name: '', header_value: '' };
type FieldName = keyof typeof EMPTY;
const FIELDS = Object.keys(EMPTY) as FieldName[];
const NO_ERRORS: FormErrors<FieldName> = { fields: {}, other: [] };

/** A user's own remote MCP server: name, URL and an optional header (kept in the server's vault). */
export function CustomMcpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form, setForm] = useState(EMPTY);
  // The API's refusal: each message under the field it names (cleared as that field is edited).
  const [errors, setErrors] = useState(NO_ERRORS);
  const { ref, focusFirstInvalid } = useFocusFirstInvalid<HTMLDivElement>();
  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: (body: CustomMcpServer) => addCustomMcpServer(body),
    onSuccess: (service) => {
      toaster.create({
        ...CUSTOM_MCP_TEXT.added(service.name),
        type: 'success',
        duration: SERVICE_TOAST_DURATION,
      });
      void refreshServices(queryClient);
      close();
    },
    onError: (error) => {
      setErrors(formErrors(error, FIELDS, CUSTOM_MCP_TEXT.failed));
      focusFirstInvalid();
    },
  });

  function close() {
    setForm(EMPTY);
    setErrors(NO_ERRORS);
    add.reset();
    onClose();
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: CustomMcpServer = { name: form.name.trim(), url: form.url.trim() };
    if (form.header_name.trim()) body.header_name = form.header_name.trim();
    if (form.header_value) body.header_value = form.header_value;
    const missing: FormErrors<FieldName>['fields'] = {};
    if (!body.name) missing.name = CUSTOM_MCP_TEXT.nameRequired;
    if (!body.url) missing.url = CUSTOM_MCP_TEXT.urlRequired;
    setErrors({ fields: missing, other: [] });
    if (missing.name || missing.url) focusFirstInvalid();
    else add.mutate(body);
  };
  const field = (key: FieldName) => ({
    value: form[key],
    onChange: (event: { target: { value: string } }) => {
      setForm({ ...form, [key]: event.target.value });
      setErrors((current) => ({ ...current, fields: { ...current.fields, [key]: undefined } }));
    },
  });

  return (
    <FormDialog
      open={open}
      onClose={close}
      title={CUSTOM_MCP_TEXT.title}
      onSubmit={submit}
      submitLabel={CUSTOM_MCP_TEXT.submit}
      cancelLabel={CUSTOM_MCP_TEXT.cancel}
      pending={add.isPending}
    >
      <Stack gap="3" ref={ref}>
        <Text fontSize="sm" color="fg.muted">
          {CUSTOM_MCP_TEXT.intro}
        </Text>
        <Field.Root required invalid={!!errors.fields.name}>
          <Field.Label>
            {CUSTOM_MCP_TEXT.name} <Field.RequiredIndicator />
          </Field.Label>
          <Input maxLength={80} {...field('name')} />
          <Field.ErrorText>{errors.fields.name}</Field.ErrorText>
        </Field.Root>
        <Field.Root required invalid={!!errors.fields.url}>
          <Field.Label>
            {CUSTOM_MCP_TEXT.url} <Field.RequiredIndicator />
          </Field.Label>
          <Input type="url" placeholder="https://mcp.example.com/mcp" {...field('url')} />
          <Field.ErrorText>{errors.fields.url}</Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={!!errors.fields.header_name}>
          <Field.Label>{CUSTOM_MCP_TEXT.headerName}</Field.Label>
          <Input placeholder="Authorization" autoComplete="off" {...field('header_name')} />
          <Field.ErrorText>{errors.fields.header_name}</Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={!!errors.fields.header_value}>
          <Field.Label>{CUSTOM_MCP_TEXT.headerValue}</Field.Label>
          <Input type="password" autoComplete="off" {...field('header_value')} />
          <Field.ErrorText>{errors.fields.header_value}</Field.ErrorText>
        </Field.Root>
        <FormErrorsAlert lines={errors.other} />
      </Stack>
    </FormDialog>
  );
}
