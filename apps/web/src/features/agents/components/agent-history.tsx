import { Badge, Box, Button, Field, HStack, List, Stack, Table, Text } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { QueryList } from '../../../components/query-list';
import { Section } from '../../../components/section';
import { Select } from '../../../components/select';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { toaster } from '../../../components/ui/toaster';
import {
  agentVersionsOptions,
  refreshAgents,
  restoreAgentVersionMutation,
  type AgentVersion,
} from '../api/agents-api';
import { HISTORY_TEXT, AGENT_TOASTS } from '../constants';
import { diffSnapshots, isEmptyDiff } from '../version-diff';

const when = (iso: string) => new Date(iso).toLocaleString();

/**
 * The agent's saved versions, newest first: what two of them differ in, field by field, and a
 * restore that saves the chosen one as a new version. `onRestored` runs once the form's agent
 * has been fetched again.
 */
export function AgentHistory({ agentId, onRestored }: { agentId: number; onRestored: () => void }) {
  const versions = useQuery(agentVersionsOptions(agentId));
  const queryClient = useQueryClient();
  const [restoring, setRestoring] = useState<AgentVersion | null>(null);
  const restore = useMutation({
    ...restoreAgentVersionMutation(),
    onSuccess: async (result, { path }) => {
      toaster.create(AGENT_TOASTS.restored(path.number, HISTORY_TEXT.notRestored(result)));
      await refreshAgents(queryClient, agentId);
      onRestored();
    },
    onError: () => toaster.create(AGENT_TOASTS.restoreFailed),
    onSettled: () => setRestoring(null),
  });

  const body = (
    <QueryList
      query={versions}
      items={versions.data}
      text={{ loading: HISTORY_TEXT.loading, error: HISTORY_TEXT.loadError, empty: HISTORY_TEXT.empty }}
      skeletonHeight="24"
    >
      {(list) => (
        <Stack gap="5">
          <List.Root variant="plain" gap="2" aria-label={HISTORY_TEXT.listLabel}>
            {list.map((version, index) => (
              <List.Item
                key={version.number}
                data-testid="agent-version"
                display="flex"
                alignItems="center"
                gap="3"
                flexWrap="wrap"
                borderBottomWidth="1px"
                pb="2"
              >
                <Text fontWeight="semibold">{HISTORY_TEXT.version(version.number)}</Text>
                <Badge variant="surface">{HISTORY_TEXT.reason(version)}</Badge>
                {/* On a phone who and when go on a line of their own, below the version and its action. */}
                <Text
                  fontSize="sm"
                  color="fg.muted"
                  flex={{ base: '1 0 100%', md: '1' }}
                  order={{ base: 1, md: 0 }}
                >
                  {HISTORY_TEXT.savedBy(version)}
                  {when(version.created_at)}
                </Text>
                {index === 0 ? (
                  <Text fontSize="sm" color="fg.muted" ms="auto">
                    {HISTORY_TEXT.current}
                  </Text>
                ) : (
                  <Button
                    size="xs"
                    variant="outline"
                    ms="auto"
                    onClick={() => setRestoring(version)}
                    aria-label={HISTORY_TEXT.restoreLabel(version.number)}
                  >
                    {HISTORY_TEXT.restore}
                  </Button>
                )}
              </List.Item>
            ))}
          </List.Root>
          {list.length > 1 && <CompareVersions versions={list} />}
        </Stack>
      )}
    </QueryList>
  );

  return (
    <Section title={HISTORY_TEXT.heading}>
      {body}
      <ConfirmDialog
        open={restoring !== null}
        title={HISTORY_TEXT.confirmTitle(restoring?.number ?? 0)}
        message={HISTORY_TEXT.confirmMessage}
        confirmLabel={HISTORY_TEXT.restore}
        pending={restore.isPending}
        onConfirm={() =>
          restoring && restore.mutate({ path: { agent_id: agentId, number: restoring.number } })
        }
        onCancel={() => setRestoring(null)}
      />
    </Section>
  );
}

function VersionSelect(props: {
  label: string;
  value: number;
  versions: AgentVersion[];
  onChange: (value: number) => void;
}) {
  return (
    <Field.Root maxW="40">
      <Field.Label>{props.label}</Field.Label>
      <Select
        size="sm"
        value={props.value}
        options={props.versions.map((v) => ({ value: v.number, label: HISTORY_TEXT.version(v.number) }))}
        onChange={props.onChange}
      />
    </Field.Root>
  );
}

/** Two versions side by side, field by field; the newest against the one before it at first. */
function CompareVersions({ versions }: { versions: AgentVersion[] }) {
  const [from, setFrom] = useState(versions[1]!.number);
  const [to, setTo] = useState(versions[0]!.number);
  const before = versions.find((v) => v.number === from) ?? versions[1]!;
  const after = versions.find((v) => v.number === to) ?? versions[0]!;
  const diff = diffSnapshots(before.snapshot, after.snapshot);
  return (
    <Stack gap="3" aria-label={HISTORY_TEXT.compareLabel} role="group">
      <HStack gap="3" align="end">
        <VersionSelect label={HISTORY_TEXT.from} value={from} versions={versions} onChange={setFrom} />
        <VersionSelect label={HISTORY_TEXT.to} value={to} versions={versions} onChange={setTo} />
      </HStack>
      {isEmptyDiff(diff) ? (
        <Text color="fg.muted">{HISTORY_TEXT.same}</Text>
      ) : (
        <Box>
          {diff.fields.length > 0 && (
            <Table.Root size="sm" aria-label={HISTORY_TEXT.diffLabel}>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>{HISTORY_TEXT.field}</Table.ColumnHeader>
                  <Table.ColumnHeader>{HISTORY_TEXT.version(before.number)}</Table.ColumnHeader>
                  <Table.ColumnHeader>{HISTORY_TEXT.version(after.number)}</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {diff.fields.map((change) => (
                  <Table.Row key={change.field}>
                    <Table.Cell fontWeight="medium">{change.field}</Table.Cell>
                    <Table.Cell whiteSpace="pre-wrap" color="fg.muted">
                      {change.before || HISTORY_TEXT.blank}
                    </Table.Cell>
                    <Table.Cell whiteSpace="pre-wrap">{change.after || HISTORY_TEXT.blank}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          )}
          {(
            [
              [HISTORY_TEXT.toolsAdded, diff.toolsAdded],
              [HISTORY_TEXT.toolsRemoved, diff.toolsRemoved],
              [HISTORY_TEXT.filesAdded, diff.filesAdded],
              [HISTORY_TEXT.filesRemoved, diff.filesRemoved],
            ] as const
          ).map(
            ([label, names]) =>
              names.length > 0 && (
                <Text key={label} fontSize="sm" mt="2">
                  {label}: {names.join(', ')}
                </Text>
              ),
          )}
          {diff.toolsReordered && (
            <Text fontSize="sm" mt="2">
              {HISTORY_TEXT.toolsReordered}
            </Text>
          )}
        </Box>
      )}
    </Stack>
  );
}
