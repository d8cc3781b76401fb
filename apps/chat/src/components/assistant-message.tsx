import { Box, Button, Text } from '@chakra-ui/react';
import type { CadreUIMessage } from '@cadre/contract';
import type { ChatApi } from '../lib/api';
import { AnswerFooter } from './answer-footer';
import { AnswerRating } from './answer-rating';
import { Citations } from './citations';
import { MessageText } from './message-text';
import { isToolCallPart, ToolStep, type ToolStepProps } from './tool-step';

/**
 * An answer: its text, notices, errors and tool steps in order, its sources, and under it (once it
 * is written) the model and time, a rating, and for the last answer Regenerate.
 */
export function AssistantMessage({
  api,
  message,
  isLast,
  streaming,
  onDecide,
  onRegenerate,
}: {
  api: ChatApi;
  message: CadreUIMessage;
  isLast: boolean;
  /** The answer is still being written. */
  streaming: boolean;
  /** Absent while an answer streams: a decision waits for it. */
  onDecide: ToolStepProps['onDecide'];
  onRegenerate: () => void;
}) {
  return (
    <Box data-testid="assistant-message">
      {message.parts.map((part, i) =>
        part.type === 'text' ? (
          <MessageText key={i} text={part.text} />
        ) : part.type === 'data-notice' ? (
          <Text key={i} color="fg.warning" fontSize="sm" role="note" data-testid="model-notice">
            {part.data.message}
          </Text>
        ) : part.type === 'data-error' && !isLast ? (
          <Text key={i} color="fg.error" fontSize="sm" role="note">
            {part.data.message || 'This answer ended with an error.'}
          </Text>
        ) : isToolCallPart(part) ? (
          <ToolStep key={part.toolCallId} part={part} endpoint={api.endpoint} onDecide={onDecide} />
        ) : null,
      )}
      <Citations message={message} />
      {message.metadata?.status === 'interrupted' && !streaming && (
        <Text color="fg.muted" fontSize="sm" role="note" data-testid="interrupted-note">
          This answer was interrupted before it finished; what it said so far is kept.
        </Text>
      )}
      {!streaming && (
        <AnswerFooter message={message}>
          <AnswerRating api={api} messageId={message.id} />
          {isLast && (
            <Button size="2xs" variant="ghost" onClick={onRegenerate}>
              {message.metadata?.status === 'interrupted' ? 'Retry' : 'Regenerate'}
            </Button>
          )}
        </AnswerFooter>
      )}
    </Box>
  );
}
