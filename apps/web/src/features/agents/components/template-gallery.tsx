import { Box, Button, Heading, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { AgentAvatar } from '@cadre/ui';
import { listAgentsOptions } from '../api/agents-api';
import { useAgentTemplates, useStartFromTemplate, type AgentTemplate } from '../api/templates-api';
import { TEMPLATE_TEXT } from '../constants';

/**
 * The agent templates as cards: one press makes a working agent (its services connected, its tools
 * attached) and opens its chat with its starters. Both pages show it under an h2 of their own.
 */
export function TemplateGallery() {
  const templates = useAgentTemplates();
  const { start, starting, pending } = useStartFromTemplate();
  if (!templates.data) return null;
  return (
    <SimpleGrid
      as="ul"
      listStyleType="none"
      columns={{ base: 1, md: 2 }}
      gap="3"
      aria-label="Agent templates"
    >
      {templates.data.templates.map((template) => (
        <TemplateCard
          key={template.id}
          template={template}
          onStart={() => start(template.id)}
          starting={starting === template.id}
          disabled={pending}
        />
      ))}
    </SimpleGrid>
  );
}

function TemplateCard(props: {
  template: AgentTemplate;
  onStart(): void;
  starting: boolean;
  disabled: boolean;
}) {
  const { template } = props;
  return (
    <Stack as="li" borderWidth="1px" borderRadius="l2" p="4" gap="2" justify="space-between" bg="bg.panel">
      <Stack gap="2">
        <HStack gap="3">
          <AgentAvatar agent={template} />
          <Heading as="h3" size="md">
            {template.name}
          </Heading>
        </HStack>
        <Text fontSize="sm">{template.description}</Text>
        <Text fontSize="sm" color="fg.muted">
          {TEMPLATE_TEXT.uses(template.services)}
        </Text>
      </Stack>
      <Box>
        <Button
          size="sm"
          colorPalette="brand"
          variant="outline"
          onClick={props.onStart}
          loading={props.starting}
          disabled={props.disabled}
        >
          {TEMPLATE_TEXT.start(template.name)}
        </Button>
      </Box>
    </Stack>
  );
}

/**
 * The ready assistant (READY_ASSISTANT), offered until the person has an agent: one press and
 * they are chatting. Nothing when the offer is switched off or they have agents already.
 */
export function ReadyAssistantOffer() {
  const templates = useAgentTemplates();
  const anyAgent = useQuery(listAgentsOptions({ query: { limit: 1 } }));
  const { start, pending } = useStartFromTemplate();
  const offered = templates.data?.templates.find((t) => t.id === templates.data?.ready_assistant);
  if (!offered || !anyAgent.data || anyAgent.data.length > 0) return null;
  return (
    <Stack
      as="section"
      aria-labelledby="ready-assistant-heading"
      borderWidth="1px"
      borderColor="brand.muted"
      bg="brand.subtle"
      borderRadius="l3"
      p="5"
      gap="3"
    >
      <HStack gap="3">
        <AgentAvatar agent={offered} size="lg" />
        <Heading as="h2" size="lg" id="ready-assistant-heading">
          {TEMPLATE_TEXT.readyTitle}
        </Heading>
      </HStack>
      <Text>{TEMPLATE_TEXT.readyText(offered.services)}</Text>
      <Box>
        <Button colorPalette="brand" onClick={() => start(offered.id)} loading={pending}>
          {TEMPLATE_TEXT.readyStart}
        </Button>
      </Box>
    </Stack>
  );
}
