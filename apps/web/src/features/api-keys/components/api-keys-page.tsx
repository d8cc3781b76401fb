import { Badge, Box, Button, Center, Code, Stack, Table, Text, Wrap } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { FiKey, FiPlus, FiTrash2 } from 'react-icons/fi';
import { PageHeader } from '../../../components/page-header';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { LoadError } from '../../../components/load-error';
import {
  listAgentsOptions,
  listApiKeysOptions,
  listApiKeysQueryKey,
  revokeApiKeyMutation,
  type ApiKey,
} from '../api/api-keys-api';
import { toaster } from '../../../components/ui/toaster';
import { CreateApiKeyDialog } from './create-api-key-dialog';

export const API_KEYS_TEXT = {
  title: 'API keys',
  intro:
    'Keys let your own code call Cadre as you, limited to the scopes and agents you choose. Send one as ' +
    '"Authorization: Bearer cadre_…". Revoking a key stops it within seconds everywhere.',
  create: 'Create API key',
  empty: 'You have no API keys.',
  loading: 'Loading API keys...',
  loadError: 'Error loading API keys.',
  revokeFailed: 'Revoke failed',
  revokeFailedDetail: (name: string) => `The key "${name}" was not revoked; it still works. Try again.`,
  allAgents: 'All agents',
  never: 'Never',
  revoke: 'Revoke',
  revokeTitle: 'Revoke API key',
  revokeMessage: (name: string) =>
    `Revoke the key "${name}"? Whatever uses it stops working. This cannot be undone.`,
} as const;

const date = (iso: string | null, fallback: string) => (iso ? new Date(iso).toLocaleString() : fallback);

/** The user's API keys: the list, creating one (shown once) and revoking one. */
export function ApiKeysPage() {
  const keys = useQuery(listApiKeysOptions());
  const agents = useQuery(listAgentsOptions());
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const queryClient = useQueryClient();
  const revoke = useMutation({
    ...revokeApiKeyMutation(),
    onSuccess: () => {
      setRevoking(null);
      void queryClient.invalidateQueries({ queryKey: listApiKeysQueryKey() });
    },
    // The dialog stays open on the key, so the person can try again or cancel.
    onError: () =>
      toaster.create({
        title: API_KEYS_TEXT.revokeFailed,
        description: API_KEYS_TEXT.revokeFailedDetail(revoking?.name ?? ''),
        type: 'error',
      }),
  });
  const agentName = (id: number) => agents.data?.find((a) => a.id === id)?.name ?? `#${id}`;

  let body: ReactNode;
  if (keys.isPending) {
    body = <StateRow>{API_KEYS_TEXT.loading}</StateRow>;
  } else if (keys.isError) {
    // Said once, above the table, with a way to retry.
    body = null;
  } else if (keys.data.length === 0) {
    body = <StateRow>{API_KEYS_TEXT.empty}</StateRow>;
  } else {
    body = keys.data.map((key) => (
      <Table.Row key={key.id} aria-label={key.name}>
        <Table.Cell fontWeight="medium">{key.name}</Table.Cell>
        <Table.Cell>
          <Code>{key.prefix}…</Code>
        </Table.Cell>
        <Table.Cell>
          <Wrap gap="1">
            {key.scopes.map((scope) => (
              <Badge key={scope}>{scope}</Badge>
            ))}
          </Wrap>
        </Table.Cell>
        <Table.Cell>
          {key.agent_ids === null ? API_KEYS_TEXT.allAgents : key.agent_ids.map(agentName).join(', ')}
        </Table.Cell>
        <Table.Cell>{date(key.created_at, '')}</Table.Cell>
        <Table.Cell>{date(key.last_used_at, API_KEYS_TEXT.never)}</Table.Cell>
        <Table.Cell>{date(key.expires_at, API_KEYS_TEXT.never)}</Table.Cell>
        <Table.Cell textAlign="end">
          <Button
            size="xs"
            variant="outline"
            colorPalette="red"
            aria-label={`${API_KEYS_TEXT.revoke} ${key.name}`}
            onClick={() => setRevoking(key)}
          >
            <FiTrash2 aria-hidden="true" /> {API_KEYS_TEXT.revoke}
          </Button>
        </Table.Cell>
      </Table.Row>
    ));
  }

  return (
    <Stack gap="6" pb="10">
      <PageHeader
        title={
          <>
            <FiKey aria-hidden="true" style={{ display: 'inline', marginInlineEnd: '0.5rem' }} />
            {API_KEYS_TEXT.title}
          </>
        }
      >
        <Button colorPalette="brand" onClick={() => setCreating(true)}>
          <FiPlus aria-hidden="true" /> {API_KEYS_TEXT.create}
        </Button>
      </PageHeader>
      <Text color="fg.muted" maxW="3xl">
        {API_KEYS_TEXT.intro}
      </Text>
      {keys.isError && (
        <LoadError
          title={API_KEYS_TEXT.loadError}
          onRetry={() => void keys.refetch()}
          retrying={keys.isFetching}
        />
      )}
      <Table.ScrollArea borderWidth="1px" rounded="md">
        <Table.Root size="sm" aria-busy={keys.isPending} aria-label={API_KEYS_TEXT.title}>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Name</Table.ColumnHeader>
              <Table.ColumnHeader>Key</Table.ColumnHeader>
              <Table.ColumnHeader>Scopes</Table.ColumnHeader>
              <Table.ColumnHeader>Agents</Table.ColumnHeader>
              <Table.ColumnHeader>Created</Table.ColumnHeader>
              <Table.ColumnHeader>Last used</Table.ColumnHeader>
              <Table.ColumnHeader>Expires</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Actions</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>{body}</Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      <CreateApiKeyDialog open={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        open={revoking !== null}
        title={API_KEYS_TEXT.revokeTitle}
        message={API_KEYS_TEXT.revokeMessage(revoking?.name ?? '')}
        confirmLabel={API_KEYS_TEXT.revoke}
        pending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate({ path: { api_key_id: revoking.id } })}
        onCancel={() => setRevoking(null)}
      />
    </Stack>
  );
}

function StateRow({ children }: { children: ReactNode }) {
  return (
    <Table.Row>
      <Table.Cell colSpan={8}>
        <Center minH="24" color="fg.muted">
          <Box>{children}</Box>
        </Center>
      </Table.Cell>
    </Table.Row>
  );
}
