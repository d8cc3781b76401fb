import { Alert, Field, Input, Stack, Text } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { describeApiError } from '../../../api/api-error';
import { FormDialog } from '../../../components/form-dialog';
import { toaster } from '../../../components/ui/toaster';
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
} as const;

const EMPTY = { name: '', url: '', header_name: '', header_value: '' };

/** A user's own remote MCP server: name, URL and an optional header (kept in the server's vault). */
export function CustomMcpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form, setForm] = useState(EMPTY);
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
  });

  function close() {
    setForm(EMPTY);
    add.reset();
    onClose();
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: CustomMcpServer = { name: form.name.trim(), url: form.url.trim() };
    if (form.header_name.trim()) body.header_name = form.header_name.trim();
    if (form.header_value) body.header_value = form.header_value;
    add.mutate(body);
  };
  const field = (key: keyof typeof EMPTY) => ({
    value: form[key],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value }),
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
      <Stack gap="3">
        <Text fontSize="sm" color="fg.muted">
          {CUSTOM_MCP_TEXT.intro}
        </Text>
        <Field.Root required>
          <Field.Label>{CUSTOM_MCP_TEXT.name}</Field.Label>
          <Input maxLength={80} {...field('name')} />
        </Field.Root>
        <Field.Root required>
          <Field.Label>{CUSTOM_MCP_TEXT.url}</Field.Label>
          <Input type="url" placeholder="https://mcp.example.com/mcp" {...field('url')} />
        </Field.Root>
        <Field.Root>
          <Field.Label>{CUSTOM_MCP_TEXT.headerName}</Field.Label>
          <Input placeholder="Authorization" autoComplete="off" {...field('header_name')} />
        </Field.Root>
        <Field.Root>
          <Field.Label>{CUSTOM_MCP_TEXT.headerValue}</Field.Label>
          <Input type="password" autoComplete="off" {...field('header_value')} />
        </Field.Root>
        {add.isError && (
          <Alert.Root status="error" role="alert">
            <Alert.Indicator />
            <Alert.Content>
              {describeApiError(add.error, CUSTOM_MCP_TEXT.failed).map((line) => (
                <Alert.Description key={line}>{line}</Alert.Description>
              ))}
            </Alert.Content>
          </Alert.Root>
        )}
      </Stack>
    </FormDialog>
  );
}
