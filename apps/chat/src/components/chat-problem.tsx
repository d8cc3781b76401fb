import { Alert, Button } from '@chakra-ui/react';
import type { CadreUIMessage } from '@cadre/contract';
import { describeProblem, refusalOf, type ChatProblem } from '../lib/errors';

/**
 * What went wrong with the last answer, if anything: a run error it carries (a `data-error` part
 * {category, message}, stored with the message too), a failed request, or the error category of
 * its finish metadata.
 */
export function problemOf({
  messages,
  error,
  status,
}: {
  messages: CadreUIMessage[];
  error: Error | undefined;
  status: string;
}): ChatProblem | null {
  const last = messages.at(-1);
  const lastMeta = last?.role === 'assistant' ? last.metadata : undefined;
  const lastRunError =
    last?.role === 'assistant' ? last.parts.findLast((p) => p.type === 'data-error') : undefined;
  return lastRunError
    ? describeProblem({ category: lastRunError.data.category, message: lastRunError.data.message })
    : error
      ? describeProblem({ category: lastMeta?.errorCategory, ...refusalOf(error) })
      : lastMeta?.errorCategory && status === 'ready'
        ? describeProblem({ category: lastMeta.errorCategory })
        : null;
}

/** The problem under the conversation, with Retry. */
export function ChatProblemAlert({
  problem,
  onRetry,
  retryDisabled,
}: {
  problem: ChatProblem;
  onRetry: () => void;
  retryDisabled: boolean;
}) {
  return (
    <Alert.Root status="error" data-testid="chat-error">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{problem.title}</Alert.Title>
        <Alert.Description>{problem.detail}</Alert.Description>
      </Alert.Content>
      <Button size="sm" variant="outline" onClick={onRetry} disabled={retryDisabled}>
        Retry
      </Button>
    </Alert.Root>
  );
}
