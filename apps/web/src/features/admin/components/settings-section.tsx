import { Field, Stack, Text } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { describeApiError } from '../../../api/api-error';
import { LoadError } from '../../../components/load-error';
import { Select } from '../../../components/select';
import { toaster } from '../../../components/ui/toaster';
import { ADMIN_TEXT, ROLE_OPTIONS } from '../admin-text';
import { getWorkspaceSettingsOptions, updateWorkspaceSettingsMutation } from '../api/admin-api';

/** The workspace's settings: the role new accounts get. */
export function SettingsSection() {
  const queryClient = useQueryClient();
  const settings = useQuery(getWorkspaceSettingsOptions());
  const update = useMutation({
    ...updateWorkspaceSettingsMutation(),
    onSuccess: (saved) => {
      queryClient.setQueryData(getWorkspaceSettingsOptions().queryKey, saved);
      toaster.create({ title: ADMIN_TEXT.saved, type: 'success' });
    },
    onError: (error) =>
      toaster.create({
        title: ADMIN_TEXT.changeFailed,
        description: describeApiError(error, ADMIN_TEXT.changeFailed).join(' '),
        type: 'error',
      }),
  });
  if (settings.isError) {
    return (
      <LoadError
        title={ADMIN_TEXT.settingsError}
        onRetry={() => void settings.refetch()}
        retrying={settings.isFetching}
      />
    );
  }
  return (
    <Stack gap="4" pt="4" maxW="lg">
      <Field.Root disabled={settings.isPending || update.isPending}>
        <Field.Label>{ADMIN_TEXT.defaultRole}</Field.Label>
        <Select
          aria-label={ADMIN_TEXT.defaultRole}
          value={settings.data?.default_role ?? 'builder'}
          options={ROLE_OPTIONS}
          disabled={settings.isPending || update.isPending}
          onChange={(role) => update.mutate({ body: { default_role: role } })}
        />
        <Text fontSize="sm" color="fg.muted">
          {ADMIN_TEXT.defaultRoleHelp}
        </Text>
      </Field.Root>
    </Stack>
  );
}
