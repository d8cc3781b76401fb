import { Badge, Field, HStack, Stack, Text } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { QueryList } from '../../../components/query-list';
import { Section } from '../../../components/section';
import { Select } from '../../../components/select';
import { toaster } from '../../../components/ui/toaster';
import {
  setToolPermissionMutation,
  toolPermissionsOptions,
  toolPermissionsQueryKey,
  type ToolPermission,
} from '../api/agents-api';
import { PERMISSION_TEXT } from '../constants';

type Mode = ToolPermission['mode'];

/**
 * Per saved write/send tool of the agent: "Ask every time" (the default) or "Allow without
 * asking". Each change is saved at once (and audited by the server), apart from the form's Save.
 */
export function ToolPermissions({ agentId }: { agentId: number }) {
  const permissions = useQuery(toolPermissionsOptions(agentId));
  const queryClient = useQueryClient();
  const change = useMutation({
    ...setToolPermissionMutation(),
    onSuccess: async (saved) => {
      toaster.create(PERMISSION_TEXT.saved(saved.display_name, saved.mode));
      await queryClient.invalidateQueries({ queryKey: toolPermissionsQueryKey(agentId) });
    },
    onError: () => toaster.create(PERMISSION_TEXT.saveFailed),
  });
  const set = (tool: ToolPermission, mode: Mode) =>
    change.mutate({ path: { agent_id: agentId, action_id: tool.action_id }, body: { mode } });

  const body = (
    <QueryList
      query={permissions}
      items={permissions.data?.data}
      text={{
        loading: PERMISSION_TEXT.loading,
        error: PERMISSION_TEXT.loadError,
        empty: PERMISSION_TEXT.none,
      }}
      skeletonHeight="16"
    >
      {(tools) => (
        <Stack gap="3" data-testid="tool-permissions">
          {tools.map((tool) => (
            <Field.Root key={tool.action_id}>
              <HStack gap="3" wrap="wrap">
                <Stack gap="0" flex="1" minW="48">
                  <Field.Label mb="0">
                    {tool.display_name}{' '}
                    <Badge size="sm" colorPalette={tool.effect === 'send' ? 'orange' : 'gray'}>
                      {PERMISSION_TEXT.effect[tool.effect]}
                    </Badge>
                  </Field.Label>
                  <Text fontSize="xs" color="fg.muted">
                    {tool.app_name}
                    {tool.mode === 'allow' &&
                      tool.allowed_at &&
                      ` · ${PERMISSION_TEXT.allowedFrom(tool.source, tool.allowed_at)}`}
                  </Text>
                </Stack>
                <Select<Mode>
                  size="sm"
                  maxW="56"
                  disabled={change.isPending}
                  aria-label={PERMISSION_TEXT.label(tool.display_name)}
                  value={tool.mode}
                  options={[
                    { value: 'ask', label: PERMISSION_TEXT.ask },
                    { value: 'allow', label: PERMISSION_TEXT.allow },
                  ]}
                  onChange={(mode) => set(tool, mode)}
                />
              </HStack>
            </Field.Root>
          ))}
        </Stack>
      )}
    </QueryList>
  );

  return (
    <Section title={PERMISSION_TEXT.heading} hint={PERMISSION_TEXT.help}>
      {body}
    </Section>
  );
}
