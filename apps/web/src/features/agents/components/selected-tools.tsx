import { Box, HStack, Stack, Tag, Text, Wrap } from '@chakra-ui/react';
import { FiAlertTriangle } from 'react-icons/fi';
import type { DraftTool } from '../api/agents-api';
import { groupToolsByApp } from '../agents-logic';
import { NeedsReconnecting } from './needs-reconnecting';

/** The tools the agent has, by service, each removable; a service whose connection expired says so. */
export function SelectedTools({
  tools,
  onRemove,
}: {
  tools: DraftTool[];
  onRemove: (toolId: number) => void;
}) {
  return (
    <Stack as="fieldset" gap="2">
      <Text as="legend" fontWeight="medium" fontSize="sm" mb="2">
        Tools
      </Text>
      {tools.length === 0 ? (
        <Text fontSize="sm" color="fg.muted">
          No tools yet. Pick a service under Active Services to add its tools.
        </Text>
      ) : (
        <Stack gap="3" data-testid="selected-tools">
          {groupToolsByApp(tools).map((group) => {
            const stale = group.tools.some((tool) => tool.needs_reconnecting);
            return (
              <Box key={group.app}>
                <HStack gap="2" mb="1" wrap="wrap">
                  <Text fontSize="sm" fontWeight="semibold">
                    {group.app}
                  </Text>
                  {stale && <NeedsReconnecting service={group.app} />}
                </HStack>
                <Wrap gap="2">
                  {group.tools.map((tool) => (
                    <Tag.Root
                      key={tool.id}
                      size="lg"
                      variant="surface"
                      colorPalette={tool.needs_reconnecting ? 'orange' : 'brand'}
                      data-needs-reconnecting={tool.needs_reconnecting || undefined}
                    >
                      {tool.needs_reconnecting && (
                        <Tag.StartElement>
                          <FiAlertTriangle aria-hidden="true" />
                        </Tag.StartElement>
                      )}
                      <Tag.Label>{tool.display_name}</Tag.Label>
                      <Tag.EndElement>
                        <Tag.CloseTrigger
                          aria-label={`Remove ${tool.display_name}`}
                          onClick={() => onRemove(tool.id)}
                        />
                      </Tag.EndElement>
                    </Tag.Root>
                  ))}
                </Wrap>
              </Box>
            );
          })}
        </Stack>
      )}
    </Stack>
  );
}
