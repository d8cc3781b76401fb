import { Input, Stack, Text } from '@chakra-ui/react';
import { customMcpServerBodySchema, formRules } from '@cadre/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FormErrorsAlert } from '../../../components/form-errors-alert';
import { FormDialog } from '../../../components/form-dialog';
import { FormField } from '../../../components/form-field';
import { toaster } from '../../../components/ui/toaster';
import { useFieldErrors } from '../../../lib/use-field-errors';
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
const RULES = formRules(customMcpServerBodySchema);

/** A user's own remote MCP server: name, URL and an optional header (kept in the server's vault). */
export function CustomMcpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form, setForm] = useState(EMPTY);
  // The API's refusal: each message under the field it names (cleared as that field is edited).
  const { ref, errors, showApiError, mark, clear, reset } = useFieldErrors<FieldName, HTMLDivElement>(FIELDS);
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
    onError: (error) => showApiError(error, CUSTOM_MCP_TEXT.failed),
  });

  function close() {
    setForm(EMPTY);
    reset();
    add.reset();
    onClose();
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: CustomMcpServer = { name: form.name.trim(), url: form.url.trim() };
    if (form.header_name.trim()) body.header_name = form.header_name.trim();
    if (form.header_value) body.header_value = form.header_value;
    const missing = {
      name: body.name ? undefined : CUSTOM_MCP_TEXT.nameRequired,
      url: body.url ? undefined : CUSTOM_MCP_TEXT.urlRequired,
    };
    if (!mark(missing)) add.mutate(body);
  };
  const field = (key: FieldName) => ({
    value: form[key],
    onChange: (event: { target: { value: string } }) => {
      setForm({ ...form, [key]: event.target.value });
      clear(key);
    },
    ...RULES[key],
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
        <FormField label={CUSTOM_MCP_TEXT.name} rules={RULES.name} error={errors.fields.name}>
          <Input {...field('name')} />
        </FormField>
        <FormField label={CUSTOM_MCP_TEXT.url} rules={RULES.url} error={errors.fields.url}>
          <Input type="url" placeholder="https://mcp.example.com/mcp" {...field('url')} />
        </FormField>
        <FormField
          label={CUSTOM_MCP_TEXT.headerName}
          rules={RULES.header_name}
          error={errors.fields.header_name}
        >
          <Input placeholder="Authorization" autoComplete="off" {...field('header_name')} />
        </FormField>
        <FormField
          label={CUSTOM_MCP_TEXT.headerValue}
          rules={RULES.header_value}
          error={errors.fields.header_value}
        >
          <Input type="password" autoComplete="off" {...field('header_value')} />
        </FormField>
        <FormErrorsAlert lines={errors.other} />
      </Stack>
    </FormDialog>
  );
}
