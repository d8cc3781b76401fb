import { Box, Button, Stack, Text } from '@chakra-ui/react';
import {
  SEARCH_KNOWLEDGE_TOOL,
  searchKnowledgeOutputSchema,
  type CadreUIMessage,
  type KnowledgeCitation,
} from '@cadre/contract';
import { useState } from 'react';
import { isToolCallPart, toolNameOf } from './tool-step';

/** The passages "Search knowledge" found in an answer, once each, in the order they were numbered. */
export function citationsOf(message: CadreUIMessage): KnowledgeCitation[] {
  const seen = new Set<string>();
  const citations: KnowledgeCitation[] = [];
  for (const part of message.parts) {
    if (!isToolCallPart(part) || toolNameOf(part) !== SEARCH_KNOWLEDGE_TOOL) continue;
    if (part.state !== 'output-available') continue;
    const output = searchKnowledgeOutputSchema.safeParse(part.output);
    if (!output.success) continue;
    for (const passage of output.data.passages) {
      const key = `${passage.file_id}:${passage.passage}`;
      if (seen.has(key)) continue;
      seen.add(key);
      citations.push(passage);
    }
  }
  return citations;
}

export const citationLabel = (c: KnowledgeCitation) =>
  `[${c.n}] ${c.file_name}${c.page === null ? '' : `, page ${c.page}`}, passage ${c.passage}`;

/**
 * Under an answer that searched the agent's files: each passage found, named by its file and
 * number as the answer cites it ([n]); a click opens the passage's text.
 */
export function Citations({ message }: { message: CadreUIMessage }) {
  const citations = citationsOf(message);
  const [open, setOpen] = useState<string | null>(null);
  if (citations.length === 0) return null;
  return (
    <Box as="section" aria-label="Sources" mt="2" data-testid="citations">
      <Text fontSize="xs" fontWeight="semibold" color="fg.muted">
        Sources
      </Text>
      <Stack gap="1" mt="1">
        {citations.map((c) => {
          const key = `${c.file_id}:${c.passage}`;
          const shown = open === key;
          return (
            <Box key={key}>
              <Button
                size="xs"
                variant="ghost"
                h="auto"
                py="1"
                justifyContent="flex-start"
                whiteSpace="normal"
                textAlign="start"
                aria-expanded={shown}
                onClick={() => setOpen(shown ? null : key)}
                data-testid="citation"
              >
                {citationLabel(c)}
              </Button>
              {shown && (
                <Box
                  as="blockquote"
                  borderStartWidth="3px"
                  borderColor="brand.solid"
                  bg="bg.muted"
                  px="3"
                  py="2"
                  fontSize="sm"
                  whiteSpace="pre-wrap"
                  data-testid="citation-passage"
                >
                  {c.text}
                </Box>
              )}
            </Box>
          );
        })}
      </Stack>
    </Box>
  );
}
