import { Button, HStack, Text } from '@chakra-ui/react';
import type { CadreUIMessage } from '@cadre/contract';
import { useState } from 'react';

export const textOfMessage = (message: CadreUIMessage) =>
  message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/** When the answer was written, in the person's own clock; the full date on hover. */
function AnswerTime({ at }: { at: string }) {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return null;
  return (
    <time dateTime={at} title={date.toLocaleString()}>
      {timeFormat.format(date)}
    </time>
  );
}

/** Under each answer: the model that wrote it, when, and a button copying the whole answer. */
export function AnswerFooter({ message, children }: { message: CadreUIMessage; children?: React.ReactNode }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const text = textOfMessage(message);
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  };
  const { model: modelId, modelName, createdAt } = message.metadata ?? {};
  // The model list's name for it where there is one, else its id.
  const model = modelName ?? modelId;
  return (
    <HStack gap="2" color="fg.muted" fontSize="xs" data-testid="answer-footer" wrap="wrap">
      {text && (
        <Button size="2xs" variant="ghost" onClick={copy} aria-label="Copy answer">
          {copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Copy failed' : 'Copy'}
        </Button>
      )}
      {children}
      {(model || createdAt) && (
        <Text as="span" data-testid="answer-meta">
          {model && (
            <Text as="span" title={modelId}>
              {model}
            </Text>
          )}
          {model && createdAt && ' · '}
          {createdAt && <AnswerTime at={createdAt} />}
        </Text>
      )}
    </HStack>
  );
}
