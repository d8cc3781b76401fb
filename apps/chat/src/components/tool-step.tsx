import { Badge, Box, Button, HStack, Link, Stack, Text } from '@chakra-ui/react';
import type { ChatApprovalDescriptor } from '@cadre/contract';
import { useState } from 'react';
import type { ChatEndpoint } from '../lib/endpoint';
import { expiryText, useApprovalDeadline } from './approval-deadline';

/** A tool call as the AI SDK streams or the server stores it (`dynamic-tool` or `tool-<name>`). */
export interface ToolCallPart {
  type: string;
  toolCallId: string;
  toolName?: string;
  title?: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  approval?: {
    id: string;
    approved?: boolean;
    reason?: string;
    /** When the pending approval expires (the server's `approvalDescriptor`). */
    descriptor?: unknown;
  };
  toolMetadata?: { effect?: string | null; durationMs?: number };
}

export const isToolCallPart = (part: { type: string }): part is ToolCallPart =>
  part.type === 'dynamic-tool' || part.type.startsWith('tool-');

export const toolNameOf = (part: ToolCallPart) =>
  part.toolName ?? (part.type.startsWith('tool-') ? part.type.slice(5) : 'tool');

const pretty = (value: unknown) => {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
};

/** A tool error that means the person's connection has to be made again. */
export const isConnectionExpired = (text: string | undefined) =>
  !!text && /(connection|token|credential)s?\b.*\b(expired|revoked|invalid)|reconnect/i.test(text);

const STATUS: Record<string, { label: string; palette: string }> = {
  'input-streaming': { label: 'Preparing', palette: 'gray' },
  'input-available': { label: 'Running', palette: 'blue' },
  'approval-requested': { label: 'Needs approval', palette: 'orange' },
  'approval-responded': { label: 'Decided', palette: 'gray' },
  'output-available': { label: 'Done', palette: 'green' },
  'output-error': { label: 'Failed', palette: 'red' },
  'output-denied': { label: 'Denied', palette: 'gray' },
};

function Json({ label, value }: { label: string; value: unknown }) {
  return (
    <Box>
      <Text fontSize="xs" fontWeight="semibold" color="fg.muted">
        {label}
      </Text>
      <Box
        as="pre"
        fontSize="xs"
        fontFamily="mono"
        bg="bg.muted"
        p="2"
        borderRadius="sm"
        overflowX="auto"
        whiteSpace="pre-wrap"
        wordBreak="break-word"
        maxH="64"
        overflowY="auto"
      >
        {pretty(value) || '(none)'}
      </Box>
    </Box>
  );
}

/**
 * The approval card's answers; Approve is the primary action. "Always allow for this agent"
 * approves this call and lets the tool run without asking from now on.
 */
const DECISIONS = [
  {
    decision: 'approve',
    label: 'Approve',
    style: { colorPalette: 'brand', bg: 'brand.solid', color: 'brand.contrast' },
  },
  { decision: 'always', label: 'Always allow for this agent', style: { variant: 'outline' } },
  { decision: 'deny', label: 'Deny', style: { variant: 'outline' } },
] as const;

export type ApprovalDecision = (typeof DECISIONS)[number]['decision'];

export const APPROVAL_EXPIRED_TEXT = 'Expired — ask again';

export interface ToolStepProps {
  part: ToolCallPart;
  endpoint: ChatEndpoint;
  /** Answers a pending call; undefined while another request is running. */
  onDecide?: (approvalId: string, decision: ApprovalDecision, toolCallId: string) => void;
}

/** One tool call as an expandable step; a pending write/send shows its FULL arguments and the decision. */
export function ToolStep(props: ToolStepProps) {
  const { part } = props;
  const asked = part.state === 'approval-requested' && !!part.approval?.id;
  // A call usually shows before its approval is asked for: the card starts afresh when it is, so
  // its countdown starts when the request arrived.
  return <ToolStepBody key={asked ? `asked:${part.approval!.id}` : 'step'} {...props} />;
}

function ToolStepBody({ part, endpoint, onDecide }: ToolStepProps) {
  const asked = part.state === 'approval-requested' && !!part.approval?.id;
  const deadline = useApprovalDeadline(
    asked ? (part.approval?.descriptor as Partial<ChatApprovalDescriptor> | undefined) : undefined,
  );
  // An expired card can no longer be answered: it says so and offers nothing to click.
  const pending = asked && !deadline.expired;
  const [open, setOpen] = useState(pending);
  const status =
    asked && deadline.expired
      ? { label: 'Expired', palette: 'gray' }
      : (STATUS[part.state] ?? { label: part.state, palette: 'gray' });
  const name = toolNameOf(part);
  const duration = part.toolMetadata?.durationMs;
  const expired = part.state === 'output-error' && isConnectionExpired(part.errorText);
  return (
    <Box
      borderWidth="1px"
      borderRadius="md"
      borderColor={pending ? 'orange.400' : part.state === 'output-error' ? 'red.400' : 'border'}
      my="2"
      data-testid="tool-step"
      data-state={part.state}
    >
      <Button
        variant="ghost"
        size="sm"
        width="full"
        justifyContent="space-between"
        onClick={() => setOpen((v) => !v)}
        aria-expanded={open}
        fontWeight="normal"
        h="auto"
        py="2"
      >
        <HStack gap="2" minW="0" flexWrap="wrap">
          <Text as="span" aria-hidden>
            {open ? '▾' : '▸'}
          </Text>
          <Text as="span" fontFamily="mono" fontSize="sm" truncate>
            {part.title && part.title !== name ? `${part.title} (${name})` : name}
          </Text>
          <Badge colorPalette={status.palette} size="sm">
            {status.label}
          </Badge>
        </HStack>
        {duration !== undefined && (
          <Text as="span" fontSize="xs" color="fg.muted" flexShrink={0}>
            {duration < 1000 ? `${Math.round(duration)} ms` : `${(duration / 1000).toFixed(1)} s`}
          </Text>
        )}
      </Button>
      {open && (
        <Stack px="3" pb="3" gap="2">
          <Json label="Arguments" value={part.input} />
          {part.state === 'output-available' && <Json label="Result" value={part.output} />}
          {part.state === 'output-error' && (
            <Box role="alert" color="fg.error" fontSize="sm">
              {part.errorText ?? 'The tool failed.'}
              {expired && (
                <>
                  {' '}
                  <Link
                    href={endpoint.servicesUrl}
                    target={endpoint.linkTarget}
                    rel="noopener"
                    color="brand.fg"
                  >
                    Reconnect the service
                  </Link>
                </>
              )}
            </Box>
          )}
          {part.state === 'output-denied' && (
            <Text fontSize="sm" color="fg.muted">
              {part.approval?.reason ?? 'You denied this action.'}
            </Text>
          )}
        </Stack>
      )}
      {pending && (
        <Stack px="3" pb="3" gap="2" data-testid="approval">
          {!open && <Json label="Arguments" value={part.input} />}
          <Text fontSize="sm">
            This action {part.toolMetadata?.effect === 'send' ? 'sends something' : 'changes data'} on your
            behalf. Run it with exactly these arguments?
          </Text>
          {deadline.deadline !== undefined && deadline.left !== undefined && (
            <Text fontSize="xs" color="fg.muted" data-testid="approval-expiry">
              {expiryText(deadline.deadline, deadline.left)}
            </Text>
          )}
          <HStack flexWrap="wrap">
            {DECISIONS.map(({ decision, label, style }) => (
              <Button
                key={decision}
                size="sm"
                {...style}
                disabled={!onDecide}
                onClick={() => onDecide?.(part.approval!.id, decision, part.toolCallId)}
              >
                {label}
              </Button>
            ))}
          </HStack>
        </Stack>
      )}
      {asked && deadline.expired && (
        <Text px="3" pb="3" fontSize="sm" color="fg.muted" data-testid="approval-expired">
          {APPROVAL_EXPIRED_TEXT}
        </Text>
      )}
    </Box>
  );
}
