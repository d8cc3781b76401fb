import { Text } from '@chakra-ui/react';
import { lazy, Suspense } from 'react';

// The Markdown renderer (react-markdown, remark-gfm and micromark, about a sixth of the frame's
// JavaScript) is its own chunk: the empty chat paints without it, and a message shown before it
// arrives reads as plain text for that moment.
const MessageMarkdown = lazy(() =>
  import('./message-markdown').then((m) => ({ default: m.MessageMarkdown })),
);

/** A message's text, rendered as Markdown by the frame's only renderer (./message-markdown). */
export function MessageText({ text }: { text: string }) {
  return (
    <Suspense
      fallback={
        <Text lineHeight="1.6" whiteSpace="pre-wrap" wordBreak="break-word">
          {text}
        </Text>
      }
    >
      <MessageMarkdown text={text} />
    </Suspense>
  );
}
