import { Button, HStack, Input } from '@chakra-ui/react';
import { useState } from 'react';
import type { ChatApi } from '../lib/api';
import { chatFeedbackSchema, formRules } from '@cadre/contract';

type Rating = 'up' | 'down';

/**
 * Thumbs up or down on one answer; after a rating, an optional comment. Pressing the chosen thumb
 * again takes the rating back.
 */
export function AnswerRating({ api, messageId }: { api: ChatApi; messageId: string }) {
  const [rating, setRating] = useState<Rating | null>(null);
  const [comment, setComment] = useState('');
  const [state, setState] = useState<'idle' | 'saved' | 'failed'>('idle');
  const save = (next: Rating | null, text = comment) => {
    api.rate(messageId, next, text).then(
      () => {
        setRating(next);
        setState(next && text.trim() ? 'saved' : 'idle');
      },
      () => setState('failed'),
    );
  };
  const thumb = (value: Rating, label: string, icon: string) => (
    <Button
      size="2xs"
      variant={rating === value ? 'subtle' : 'ghost'}
      aria-label={label}
      aria-pressed={rating === value}
      onClick={() => save(rating === value ? null : value)}
    >
      {icon}
    </Button>
  );
  return (
    <HStack gap="1" data-testid="answer-rating">
      {thumb('up', 'Good answer', '👍')}
      {thumb('down', 'Bad answer', '👎')}
      {rating && (
        <HStack
          as="form"
          gap="1"
          onSubmit={(e) => {
            e.preventDefault();
            save(rating);
          }}
        >
          <Input
            size="2xs"
            aria-label="Comment on this answer (optional)"
            placeholder="Add a comment (optional)"
            maxLength={formRules(chatFeedbackSchema).comment.maxLength}
            value={comment}
            onChange={(e) => {
              setComment(e.target.value);
              setState('idle');
            }}
          />
          <Button size="2xs" variant="ghost" type="submit" disabled={!comment.trim()}>
            {state === 'saved' ? 'Saved' : 'Send'}
          </Button>
        </HStack>
      )}
      {state === 'failed' && <span role="alert">The rating could not be saved.</span>}
    </HStack>
  );
}
