import { Box, Button, Clipboard, Code, Field, HStack, Input, Stack, Tag, Text, Wrap } from '@chakra-ui/react';
import { normaliseOrigin } from '@cadre/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../api/api-error';
import { Section } from '../../../components/section';
import { toaster } from '../../../components/ui/toaster';
import { useRuntimeConfig } from '../../../config/runtime-config-context';
import { refreshAgents, saveEmbedOrigins, type Agent } from '../api/agents-api';
import { EMBED_TEXT, embedSnippets } from '../embed-snippets';
import { FieldMessage, FieldRoot } from '../../../components/form-field';

/**
 * The agent's "Embed" section: the origins whose pages may carry its copilot (saved on their own,
 * apart from the form's Save), what a host page and its backend need, and the agent's MCP server.
 */
export function AgentEmbed({ agent }: { agent: Agent }) {
  const config = useRuntimeConfig();
  const queryClient = useQueryClient();
  // An answer from a server without embedding has no list: none allowed.
  const saved: string[] = (agent.embed_origins as string[] | undefined) ?? [];
  const [origins, setOrigins] = useState<string[]>(saved);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string>();
  const dirty = origins.join('\n') !== saved.join('\n');

  const save = useMutation({
    mutationFn: (next: string[]) => saveEmbedOrigins(agent.id, next),
    onSuccess: async (updated) => {
      setOrigins(updated.embed_origins);
      toaster.create({ type: 'success', title: EMBED_TEXT.saved });
      await refreshAgents(queryClient, agent.id);
    },
    onError: (failure) =>
      setError(
        failure instanceof ApiError && failure.code === 'validation_failed'
          ? EMBED_TEXT.invalid
          : EMBED_TEXT.saveFailed,
      ),
  });

  const add = (event: FormEvent) => {
    event.preventDefault();
    const origin = normaliseOrigin(typed);
    if (!origin) return setError(EMBED_TEXT.invalid);
    if (origins.length >= EMBED_TEXT.max) return setError(EMBED_TEXT.tooMany);
    setError(undefined);
    setTyped('');
    if (!origins.includes(origin)) setOrigins([...origins, origin]);
  };

  const snippets = embedSnippets({
    chainlitUrl: config.chainlitUrl,
    apiUrl: config.apiUrl,
    agentId: agent.id,
    agentName: agent.name,
    origin: origins[0],
  });

  return (
    <Section title={EMBED_TEXT.title} hint={EMBED_TEXT.hint} data-testid="agent-embed">
      <Stack gap="3">
        <Text fontWeight="medium" fontSize="sm">
          {EMBED_TEXT.originsTitle}
        </Text>
        <EmbedOrigins
          origins={origins}
          onRemove={(origin) => setOrigins(origins.filter((o) => o !== origin))}
        />
        <form onSubmit={add} noValidate aria-label={EMBED_TEXT.addLabel}>
          <FieldRoot invalid={error !== undefined}>
            <Field.Label>{EMBED_TEXT.addLabel}</Field.Label>
            <HStack gap="2" w="full">
              <Input
                value={typed}
                onChange={(event) => {
                  setTyped(event.target.value);
                  setError(undefined);
                }}
                placeholder="https://www.example.com"
                autoComplete="off"
                inputMode="url"
              />
              <Button type="submit" variant="outline">
                {EMBED_TEXT.add}
              </Button>
            </HStack>
            <FieldMessage error={error} help={EMBED_TEXT.rule} />
          </FieldRoot>
        </form>
        <HStack>
          <Button
            colorPalette="brand"
            disabled={!dirty}
            loading={save.isPending}
            onClick={() => {
              setError(undefined);
              save.mutate(origins);
            }}
          >
            {EMBED_TEXT.save}
          </Button>
        </HStack>
      </Stack>
      <Snippet title={EMBED_TEXT.hostPage} hint={EMBED_TEXT.hostPageHint} code={snippets.hostPage} />
      <Snippet
        title={EMBED_TEXT.hostBackend}
        hint={
          <>
            {EMBED_TEXT.hostBackendHint}{' '}
            <Link to="/api-keys" style={{ textDecoration: 'underline' }}>
              {EMBED_TEXT.apiKeysLink}
            </Link>
          </>
        }
        code={snippets.hostBackend}
      />
      <Snippet title={EMBED_TEXT.mcp} hint={EMBED_TEXT.mcpHint} code={snippets.mcpConfig}>
        <Text fontSize="sm">
          {EMBED_TEXT.mcpUrl}{' '}
          <Code data-testid="mcp-url" wordBreak="break-all">
            {snippets.mcpUrl}
          </Code>
        </Text>
      </Snippet>
    </Section>
  );
}

/** The origins allowed so far, each removable. */
function EmbedOrigins({ origins, onRemove }: { origins: string[]; onRemove: (origin: string) => void }) {
  if (origins.length === 0) {
    return (
      <Text fontSize="sm" color="fg.muted">
        {EMBED_TEXT.none}
      </Text>
    );
  }
  return (
    <Wrap gap="2" aria-label={EMBED_TEXT.originsTitle} role="list">
      {origins.map((origin) => (
        <Tag.Root key={origin} size="lg" variant="surface" role="listitem">
          <Tag.Label>{origin}</Tag.Label>
          <Tag.EndElement>
            <Tag.CloseTrigger aria-label={EMBED_TEXT.remove(origin)} onClick={() => onRemove(origin)} />
          </Tag.EndElement>
        </Tag.Root>
      ))}
    </Wrap>
  );
}

/** A titled block of code to copy. */
function Snippet(props: { title: string; hint: React.ReactNode; code: string; children?: React.ReactNode }) {
  return (
    <Stack gap="2" pt="2">
      <HStack justify="space-between" gap="2">
        <Text fontWeight="medium" fontSize="sm">
          {props.title}
        </Text>
        <Clipboard.Root value={props.code}>
          <Clipboard.Trigger asChild>
            <Button size="xs" variant="outline" aria-label={EMBED_TEXT.copy(props.title)}>
              <Clipboard.Indicator copied={EMBED_TEXT.copied}>{EMBED_TEXT.copyShort}</Clipboard.Indicator>
            </Button>
          </Clipboard.Trigger>
        </Clipboard.Root>
      </HStack>
      <Text fontSize="sm" color="fg.muted">
        {props.hint}
      </Text>
      {props.children}
      <Box
        as="pre"
        fontFamily="mono"
        fontSize="xs"
        bg="bg.muted"
        p="3"
        borderRadius="md"
        overflowX="auto"
        // Long lines wrap on a phone rather than hide off the side; Copy takes the exact text.
        whiteSpace={{ base: 'pre-wrap', md: 'pre' }}
        overflowWrap={{ base: 'anywhere', md: 'normal' }}
        // May scroll sideways on a wider screen: focusable, so a keyboard can scroll it too.
        tabIndex={0}
        aria-label={props.title}
      >
        {props.code}
      </Box>
    </Stack>
  );
}
