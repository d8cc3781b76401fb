import { Badge, Box, Button, Center, Code, HStack, Stack, Table, Text, Wrap } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { FiEdit2, FiKey, FiPlus, FiTrash2 } from 'react-icons/fi';
import { PageHeader } from '../../../components/page-header';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { CARD_CELL, CARD_ROW, CardTable, type CardColumn } from '../../../components/card-table';
import { LoadError } from '../../../components/load-error';
import {
  listAgentsOptions,
  listApiKeysOptions,
  listApiKeysQueryKey,
  revokeApiKeyMutation,
  type ApiKey,
} from '../api/api-keys-api';
import { toaster } from '../../../components/ui/toaster';
import { ApiKeyOriginsDialog } from './api-key-origins-dialog';
import { CreateApiKeyDialog } from './create-api-key-dialog';
import { useCan } from '../../../lib/role';

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
  noOrigins: 'None (code only)',
  editOrigins: 'Edit',
  never: 'Never',
  revoke: 'Revoke',
  revokeTitle: 'Revoke API key',
  revokeMessage: (name: string) =>
    `Revoke the key "${name}"? Whatever uses it stops working. This cannot be undone.`,
} as const;

const date = (iso: string | null, fallback: string) => (iso ? new Date(iso).toLocaleString() : fallback);

const COLUMNS: readonly CardColumn[] = [
  ...['Name', 'Key', 'Scopes', 'Agents', 'Allowed origins', 'Created', 'Last used', 'Expires'].map(
    (label) => ({ label }),
  ),
  { label: 'Actions', w: '24', textAlign: 'end' },
];

/** A value's column name, written before it on a card (the table's header says it on a wide screen). */
function CardLabel({ children }: { children: string }) {
  return (
    <Text as="span" hideFrom="lg" color="fg.muted" me="1.5">
      {children}:
    </Text>
  );
}

/** The user's API keys: the list, creating one (shown once) and revoking one. */
export function ApiKeysPage() {
  const keys = useQuery(listApiKeysOptions());
  const agents = useQuery(listAgentsOptions());
  const [creating, setCreating] = useState(false);
  const canCreate = useCan('create_api_keys');
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [editingOrigins, setEditingOrigins] = useState<ApiKey | null>(null);
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
      <ApiKeyRow
        key={key.id}
        apiKey={key}
        agentName={agentName}
        // Changing where a key may be used from is the key creators' permission, as on the server.
        onOrigins={canCreate ? () => setEditingOrigins(key) : undefined}
        onRevoke={() => setRevoking(key)}
      />
    ));
  }

  return (
    <Stack gap="6" pb="10">
      <PageHeader icon={FiKey} title={API_KEYS_TEXT.title} intro={API_KEYS_TEXT.intro}>
        {canCreate && (
          <Button colorPalette="brand" onClick={() => setCreating(true)}>
            <FiPlus aria-hidden="true" /> {API_KEYS_TEXT.create}
          </Button>
        )}
      </PageHeader>
      {keys.isError && (
        <LoadError
          title={API_KEYS_TEXT.loadError}
          onRetry={() => void keys.refetch()}
          retrying={keys.isFetching}
        />
      )}
      {/* On a phone each key is a card with Revoke at its top: no column is out of sight. */}
      <CardTable label={API_KEYS_TEXT.title} busy={keys.isPending} columns={COLUMNS}>
        {body}
      </CardTable>
      <CreateApiKeyDialog open={creating} onClose={() => setCreating(false)} />
      <ApiKeyOriginsDialog apiKey={editingOrigins} onClose={() => setEditingOrigins(null)} />
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

/** One key: its values, a way to edit its allowed origins, and Revoke. */
function ApiKeyRow({
  apiKey: key,
  agentName,
  onOrigins,
  onRevoke,
}: {
  apiKey: ApiKey;
  agentName: (id: number) => string;
  /** Absent for a role that may not change a key: the origins are shown without Edit. */
  onOrigins: (() => void) | undefined;
  onRevoke: () => void;
}) {
  return (
    <Table.Row
      aria-label={key.name}
      {...CARD_ROW}
      // A card on a phone: the name and Revoke, then one line per value with its label.
      gridTemplateColumns="minmax(0, 1fr) auto"
      gridTemplateAreas={`"name revoke" "key key" "scopes scopes" "agents agents" "origins origins" "created created" "used used" "expires expires"`}
      gap="1.5"
    >
      <Table.Cell {...CARD_CELL} gridArea="name" fontWeight="medium" wordBreak="break-word">
        {key.name}
      </Table.Cell>
      <Table.Cell {...CARD_CELL} gridArea="key">
        <CardLabel>Key</CardLabel>
        <Code>{key.prefix}…</Code>
      </Table.Cell>
      <Table.Cell {...CARD_CELL} gridArea="scopes">
        <HStack gap="1" wrap="wrap">
          <CardLabel>Scopes</CardLabel>
          <Wrap gap="1">
            {key.scopes.map((scope) => (
              <Badge key={scope}>{scope}</Badge>
            ))}
          </Wrap>
        </HStack>
      </Table.Cell>
      <Table.Cell {...CARD_CELL} gridArea="agents">
        <CardLabel>Agents</CardLabel>
        {key.agent_ids === null ? API_KEYS_TEXT.allAgents : key.agent_ids.map(agentName).join(', ')}
      </Table.Cell>
      <Table.Cell {...CARD_CELL} gridArea="origins" wordBreak="break-word">
        <CardLabel>Allowed origins</CardLabel>
        {key.allowed_origins.join(', ') || API_KEYS_TEXT.noOrigins}{' '}
        {onOrigins && (
          <Button
            size="2xs"
            variant="ghost"
            aria-label={`Edit allowed origins of ${key.name}`}
            onClick={onOrigins}
          >
            <FiEdit2 aria-hidden="true" /> {API_KEYS_TEXT.editOrigins}
          </Button>
        )}
      </Table.Cell>
      <Table.Cell {...CARD_CELL} gridArea="created">
        <CardLabel>Created</CardLabel>
        {date(key.created_at, '')}
      </Table.Cell>
      <Table.Cell {...CARD_CELL} gridArea="used">
        <CardLabel>Last used</CardLabel>
        {date(key.last_used_at, API_KEYS_TEXT.never)}
      </Table.Cell>
      <Table.Cell {...CARD_CELL} gridArea="expires">
        <CardLabel>Expires</CardLabel>
        {date(key.expires_at, API_KEYS_TEXT.never)}
      </Table.Cell>
      <Table.Cell {...CARD_CELL} gridArea="revoke" textAlign="end">
        <Button
          size="xs"
          variant="outline"
          colorPalette="red"
          aria-label={`${API_KEYS_TEXT.revoke} ${key.name}`}
          onClick={onRevoke}
        >
          <FiTrash2 aria-hidden="true" /> {API_KEYS_TEXT.revoke}
        </Button>
      </Table.Cell>
    </Table.Row>
  );
}

function StateRow({ children }: { children: ReactNode }) {
  return (
    <Table.Row role="row" display={{ base: 'block', lg: 'table-row' }}>
      <Table.Cell role="cell" colSpan={COLUMNS.length} display={{ base: 'block', lg: 'table-cell' }}>
        <Center minH="24" color="fg.muted">
          <Box>{children}</Box>
        </Center>
      </Table.Cell>
    </Table.Row>
  );
}
