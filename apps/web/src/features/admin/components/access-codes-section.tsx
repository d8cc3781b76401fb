import { Badge, Button, Code, Field, HStack, Input, Stack, Table, Text } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { describeApiError } from '../../../api/api-error';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { LoadError } from '../../../components/load-error';
import { toaster } from '../../../components/ui/toaster';
import {
  createAccessCodeMutation,
  listAccessCodesOptions,
  listAccessCodesQueryKey,
  revokeAccessCodeMutation,
  type AccessCode,
} from '../api/admin-api';

export const CODES_TEXT = {
  label: 'Label',
  maxUses: 'Maximum uses (empty: any)',
  expires: 'Expires on (empty: never)',
  create: 'Create code',
  loading: 'Loading access codes...',
  error: 'Error loading access codes.',
  empty: 'No access codes yet.',
  created: (code: string) => `The new code is ${code}. Copy it now: it is not shown again.`,
  revoke: 'Revoke',
  revokeTitle: 'Revoke access code',
  revokeMessage: (label: string) =>
    `Revoke "${label}"? Nobody can enter it any more; accounts made with it stay.`,
  readOnly: 'Set by the server (read only)',
  revoked: 'Revoked',
  failed: 'The change was not saved',
} as const;

const uses = (code: AccessCode) =>
  code.uses === null ? '—' : `${code.uses}${code.max_uses === null ? '' : ` of ${code.max_uses}`}`;

/** Access codes: those of the server's settings (read only) and those made here, with their uses. */
export function AccessCodesSection() {
  const queryClient = useQueryClient();
  const codes = useQuery(listAccessCodesOptions());
  const [label, setLabel] = useState('');
  const [maxUses, setMaxUses] = useState('');
  const [expires, setExpires] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<AccessCode | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: listAccessCodesQueryKey() });
  const onError = (error: unknown) =>
    toaster.create({
      title: CODES_TEXT.failed,
      description: describeApiError(error, CODES_TEXT.failed).join(' '),
      type: 'error',
    });
  const create = useMutation({
    ...createAccessCodeMutation(),
    onSuccess: async (made) => {
      setShown(made.code);
      setLabel('');
      setMaxUses('');
      setExpires('');
      await refresh();
    },
    onError,
  });
  const revoke = useMutation({
    ...revokeAccessCodeMutation(),
    onSuccess: async () => {
      setRevoking(null);
      await refresh();
    },
    onError,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!label.trim()) return;
    create.mutate({
      body: {
        label,
        ...(maxUses && { max_uses: Number(maxUses) }),
        ...(expires && { expires_at: new Date(`${expires}T23:59:59`).toISOString() }),
      },
    });
  };

  return (
    <Stack gap="4" pt="4">
      <Stack as="form" onSubmit={submit} gap="3" maxW="lg">
        <Field.Root required>
          <Field.Label>{CODES_TEXT.label}</Field.Label>
          <Input value={label} onChange={(e) => setLabel(e.currentTarget.value)} />
        </Field.Root>
        <HStack gap="3" align="end">
          <Field.Root>
            <Field.Label>{CODES_TEXT.maxUses}</Field.Label>
            <Input
              type="number"
              min={1}
              value={maxUses}
              onChange={(e) => setMaxUses(e.currentTarget.value)}
            />
          </Field.Root>
          <Field.Root>
            <Field.Label>{CODES_TEXT.expires}</Field.Label>
            <Input type="date" value={expires} onChange={(e) => setExpires(e.currentTarget.value)} />
          </Field.Root>
        </HStack>
        <Button
          type="submit"
          colorPalette="brand"
          alignSelf="start"
          loading={create.isPending}
          disabled={!label.trim()}
        >
          {CODES_TEXT.create}
        </Button>
      </Stack>
      {shown && (
        <Text role="status" p="3" borderWidth="1px" rounded="md">
          {CODES_TEXT.created(shown)}
        </Text>
      )}
      {codes.isError && (
        <LoadError
          title={CODES_TEXT.error}
          onRetry={() => void codes.refetch()}
          retrying={codes.isFetching}
        />
      )}
      {codes.isPending && <Text color="fg.muted">{CODES_TEXT.loading}</Text>}
      {codes.data?.length === 0 && <Text color="fg.muted">{CODES_TEXT.empty}</Text>}
      {!!codes.data?.length && <CodesTable codes={codes.data} onRevoke={setRevoking} />}
      <ConfirmDialog
        open={revoking !== null}
        title={CODES_TEXT.revokeTitle}
        message={CODES_TEXT.revokeMessage(revoking?.label ?? '')}
        confirmLabel={CODES_TEXT.revoke}
        pending={revoke.isPending}
        onConfirm={() => revoking?.id && revoke.mutate({ path: { code_id: revoking.id } })}
        onCancel={() => setRevoking(null)}
      />
    </Stack>
  );
}

function CodesTable({ codes, onRevoke }: { codes: AccessCode[]; onRevoke: (code: AccessCode) => void }) {
  return (
    <Table.ScrollArea>
      <Table.Root size="sm" aria-label="Access codes">
        <Table.Header>
          <Table.Row>
            {['Label', 'Code', 'Uses', 'Expires', ''].map((h) => (
              <Table.ColumnHeader key={h}>{h}</Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {codes.map((code) => (
            <Table.Row key={code.id ?? `${code.source}-${code.hint}`} aria-label={code.label}>
              <Table.Cell>{code.label}</Table.Cell>
              <Table.Cell>
                <Code>{code.code ?? `…${code.hint}`}</Code>
              </Table.Cell>
              <Table.Cell>{uses(code)}</Table.Cell>
              <Table.Cell>
                {code.expires_at ? new Date(code.expires_at).toLocaleDateString() : '—'}
              </Table.Cell>
              <Table.Cell textAlign="end">
                {code.id === null ? (
                  <Badge variant="outline">{CODES_TEXT.readOnly}</Badge>
                ) : code.revoked_at ? (
                  <Badge colorPalette="red">{CODES_TEXT.revoked}</Badge>
                ) : (
                  <Button
                    size="xs"
                    variant="outline"
                    colorPalette="red"
                    aria-label={`${CODES_TEXT.revoke} ${code.label}`}
                    onClick={() => onRevoke(code)}
                  >
                    {CODES_TEXT.revoke}
                  </Button>
                )}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
