import { Badge, Button, Code, HStack, Stack, Table, Text } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { FiCheck, FiCopy, FiRefreshCw } from 'react-icons/fi';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { QueryList } from '../../../components/query-list';
import { Section } from '../../../components/section';
import { toaster } from '../../../components/ui/toaster';
import { useRuntimeConfig } from '../../../config/runtime-config-context';
import {
  deleteTriggerSecretMutation,
  rotateTriggerSecretMutation,
  triggerEventsOptions,
  triggerSecretOptions,
  triggerSecretQueryKey,
  triggerUrl,
  type TriggerEvent,
} from '../api/triggers-api';
import { TRIGGER_TEXT } from '../constants';

/** The event name the examples use; any name the URL allows works. */
const EXAMPLE_TRIGGER = 'new-order';
const EXAMPLE_BODY = '{"order_id": 42}';

const STATUS_PALETTE: Record<TriggerEvent['status'], string> = {
  pending: 'gray',
  running: 'blue',
  done: 'green',
  failed: 'red',
};

/**
 * The editor's Triggers section (an existing agent only): the URL a program posts events to, how to
 * authenticate (an API key, or a Standard Webhooks signature with the agent's secret) and the last
 * runs with their state and thread.
 */
export function AgentTriggers({ agentId }: { agentId: number }) {
  const { apiUrl } = useRuntimeConfig();
  const url = triggerUrl(apiUrl, agentId, EXAMPLE_TRIGGER);
  const curl = [
    `curl -X POST '${url}' \\`,
    `  -H 'Authorization: Bearer cadre_…' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '${EXAMPLE_BODY}'`,
  ].join('\n');
  return (
    <Section title={TRIGGER_TEXT.heading} hint={TRIGGER_TEXT.help}>
      <Stack gap="2">
        <Text fontWeight="medium" fontSize="sm">
          {TRIGGER_TEXT.urlLabel}
        </Text>
        <Snippet text={url} what={TRIGGER_TEXT.urlLabel} testId="trigger-url" />
        <Text fontSize="sm" color="fg.muted">
          {TRIGGER_TEXT.urlHelp}
        </Text>
      </Stack>
      <Stack gap="2">
        <PartHeading title={TRIGGER_TEXT.withKey} help={TRIGGER_TEXT.withKeyHelp} />
        <Snippet text={curl} what="curl example" testId="trigger-curl" />
      </Stack>
      <SignedCalls agentId={agentId} url={url} />
      <TriggerRuns agentId={agentId} />
    </Section>
  );
}

/** Text to copy as it is: a URL or an example. */
function Snippet({ text, what, testId }: { text: string; what: string; testId: string }) {
  const [copied, setCopied] = useState(false);
  return (
    // The text takes the whole width on a phone, its Copy button below it.
    <Stack direction={{ base: 'column', md: 'row' }} gap="2" align={{ base: 'end', md: 'start' }}>
      <Code
        data-testid={testId}
        display="block"
        whiteSpace="pre-wrap"
        wordBreak="break-all"
        p="2"
        flex="1"
        minW="0"
        alignSelf="stretch"
      >
        {text}
      </Code>
      <Button
        variant="outline"
        size="sm"
        aria-label={TRIGGER_TEXT.copyLabel(what)}
        onClick={() => void navigator.clipboard?.writeText(text).then(() => setCopied(true))}
      >
        {copied ? <FiCheck aria-hidden="true" /> : <FiCopy aria-hidden="true" />}
        {copied ? TRIGGER_TEXT.copied : TRIGGER_TEXT.copy}
      </Button>
    </Stack>
  );
}

/** Signing in JavaScript (Node 18+), as Standard Webhooks defines it. */
const signingExample = (url: string) =>
  `import crypto from 'node:crypto';

const secret = process.env.CADRE_TRIGGER_SECRET; // whsec_…
const body = JSON.stringify({ order_id: 42 });
const id = crypto.randomUUID(); // a resend of this event keeps its id
const timestamp = Math.floor(Date.now() / 1000);
const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
const signature = crypto.createHmac('sha256', key).update(\`\${id}.\${timestamp}.\${body}\`).digest('base64');

await fetch('${url}', {
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': \`v1,\${signature}\`,
  },
  body,
});`;

/** The agent's signing secret: made or rotated here and shown once, or deleted. */
function SignedCalls({ agentId, url }: { agentId: number; url: string }) {
  const queryClient = useQueryClient();
  const status = useQuery(triggerSecretOptions(agentId));
  const [shown, setShown] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<'rotate' | 'delete' | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: triggerSecretQueryKey(agentId) });
  const rotate = useMutation({
    ...rotateTriggerSecretMutation(),
    onSuccess: async (created) => {
      setShown(created.secret);
      setConfirming(null);
      await refresh();
    },
    onError: () => toaster.create(TRIGGER_TEXT.secretFailed),
  });
  const remove = useMutation({
    ...deleteTriggerSecretMutation(),
    onSuccess: async () => {
      setShown(null);
      setConfirming(null);
      await refresh();
    },
    onError: () => toaster.create(TRIGGER_TEXT.secretFailed),
  });
  const path = { path: { agent_id: agentId } };
  const madeAt = status.data?.created_at ?? null;
  return (
    <Stack gap="2">
      <PartHeading title={TRIGGER_TEXT.signed} help={TRIGGER_TEXT.signedHelp} />
      {status.isError ? (
        <Text color="fg.error" role="alert">
          {TRIGGER_TEXT.secretLoadError}
        </Text>
      ) : status.isPending ? null : (
        <HStack gap="3" wrap="wrap">
          <Text fontSize="sm" data-testid="trigger-secret-status">
            {madeAt ? TRIGGER_TEXT.secretOn(madeAt) : TRIGGER_TEXT.secretOff}
          </Text>
          <Button
            size="sm"
            variant="outline"
            loading={rotate.isPending && confirming === null}
            onClick={() => (madeAt ? setConfirming('rotate') : rotate.mutate(path))}
          >
            {madeAt ? TRIGGER_TEXT.rotateSecret : TRIGGER_TEXT.createSecret}
          </Button>
          {madeAt && (
            <Button size="sm" variant="ghost" colorPalette="red" onClick={() => setConfirming('delete')}>
              {TRIGGER_TEXT.deleteSecret}
            </Button>
          )}
        </HStack>
      )}
      {shown && (
        <Stack gap="1">
          <Text fontSize="sm">{TRIGGER_TEXT.shownOnce}</Text>
          <Snippet text={shown} what="trigger secret" testId="trigger-secret" />
        </Stack>
      )}
      <Snippet text={signingExample(url)} what="signing example" testId="trigger-signing-example" />
      <ConfirmDialog
        open={confirming !== null}
        title={confirming === 'delete' ? TRIGGER_TEXT.deleteTitle : TRIGGER_TEXT.rotateTitle}
        message={confirming === 'delete' ? TRIGGER_TEXT.deleteMessage : TRIGGER_TEXT.rotateMessage}
        confirmLabel={confirming === 'delete' ? TRIGGER_TEXT.deleteSecret : TRIGGER_TEXT.rotateSecret}
        pending={rotate.isPending || remove.isPending}
        onConfirm={() => (confirming === 'delete' ? remove.mutate(path) : rotate.mutate(path))}
        onCancel={() => setConfirming(null)}
      />
    </Stack>
  );
}

/** The agent's last trigger events: what fired, when, how it went, and its thread. */
function TriggerRuns({ agentId }: { agentId: number }) {
  const events = useQuery(triggerEventsOptions(agentId));
  return (
    <Stack gap="2">
      <HStack justify="space-between">
        <Text fontWeight="medium" fontSize="sm">
          {TRIGGER_TEXT.runs}
        </Text>
        <Button size="xs" variant="ghost" loading={events.isFetching} onClick={() => void events.refetch()}>
          <FiRefreshCw aria-hidden="true" /> {TRIGGER_TEXT.refresh}
        </Button>
      </HStack>
      <QueryList
        query={events}
        items={events.data}
        text={{ loading: TRIGGER_TEXT.loading, error: TRIGGER_TEXT.loadError, empty: TRIGGER_TEXT.empty }}
        skeletonHeight="16"
      >
        {(rows) => (
          <Table.Root size="sm" aria-label={TRIGGER_TEXT.runs}>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>{TRIGGER_TEXT.trigger}</Table.ColumnHeader>
                <Table.ColumnHeader>{TRIGGER_TEXT.received}</Table.ColumnHeader>
                <Table.ColumnHeader>{TRIGGER_TEXT.status}</Table.ColumnHeader>
                <Table.ColumnHeader>{TRIGGER_TEXT.thread}</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {rows.map((event) => (
                <Table.Row key={event.id}>
                  <Table.Cell>{event.trigger_id}</Table.Cell>
                  <Table.Cell>{new Date(event.received_at).toLocaleString()}</Table.Cell>
                  <Table.Cell>
                    <Badge colorPalette={STATUS_PALETTE[event.status]}>
                      {TRIGGER_TEXT.statuses[event.status]}
                    </Badge>
                  </Table.Cell>
                  <Table.Cell>
                    {event.thread_id ? (
                      <Link
                        to="/agents/$Id/chat/{-$threadId}"
                        params={{ Id: String(agentId), threadId: event.thread_id }}
                        aria-label={TRIGGER_TEXT.openThread(event.id)}
                      >
                        {TRIGGER_TEXT.thread}
                      </Link>
                    ) : (
                      <Text as="span" color="fg.muted">
                        {TRIGGER_TEXT.noThread}
                      </Text>
                    )}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )}
      </QueryList>
    </Stack>
  );
}

/** A part's name and, under it, the sentence that says what it is for. */
function PartHeading({ title, help }: { title: string; help: string }) {
  return (
    <>
      <Text fontWeight="medium" fontSize="sm">
        {title}
      </Text>
      <Text fontSize="sm" color="fg.muted">
        {help}
      </Text>
    </>
  );
}
