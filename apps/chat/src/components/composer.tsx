import { Button, HStack, Textarea } from '@chakra-ui/react';
import { useState, type KeyboardEvent } from 'react';
import { MESSAGE_RULES } from '../lib/message-rules';

export interface ComposerProps {
  busy: boolean;
  disabled?: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  /** ↑ in an empty composer: edit the last message sent (absent when there is none to edit). */
  onEditLast?: () => void;
  placeholder?: string;
}

/**
 * Enter sends, Shift+Enter adds a line (and Enter while an IME is composing does nothing); ↑ in an
 * empty composer edits the last message.
 */
export function Composer({ busy, disabled, onSend, onStop, onEditLast, placeholder }: ComposerProps) {
  const [text, setText] = useState('');
  const submit = () => {
    const value = text.trim();
    if (!value || busy || disabled) return;
    onSend(value);
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    } else if (event.key === 'ArrowUp' && text === '' && onEditLast) {
      event.preventDefault();
      onEditLast();
    }
  };
  return (
    <HStack
      as="form"
      align="end"
      gap="2"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Textarea
        aria-label="Message"
        maxLength={MESSAGE_RULES.maxLength}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder={placeholder ?? 'Message the agent (Enter to send, Shift+Enter for a new line)'}
        autoresize
        maxH="40"
        rows={1}
        disabled={disabled}
      />
      {busy ? (
        <Button type="button" variant="outline" onClick={onStop}>
          Stop
        </Button>
      ) : (
        <Button type="submit" bg="brand.solid" color="brand.contrast" disabled={disabled || !text.trim()}>
          Send
        </Button>
      )}
    </HStack>
  );
}
