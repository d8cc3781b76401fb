import { Badge, Button, Card, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { describeApiError } from '../../../api/api-error';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormDialog } from '../../../components/form-dialog';
import { LoadError } from '../../../components/load-error';
import { toaster } from '../../../components/ui/toaster';
import { ADMIN_TEXT } from '../admin-text';
import {
  createGroupMutation,
  deleteGroupMutation,
  listGroupsOptions,
  refreshAdmin,
  renameGroupMutation,
  type Group,
} from '../api/admin-api';
import { GroupMembers } from './group-members';

/** Groups: create one, rename or delete a hand-made one, and see or change who is in each. */
export function GroupsSection() {
  const queryClient = useQueryClient();
  const groups = useQuery(listGroupsOptions());
  const [name, setName] = useState('');
  const [renaming, setRenaming] = useState<Group | null>(null);
  const [deleting, setDeleting] = useState<Group | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const failed = (error: unknown) =>
    toaster.create({
      title: ADMIN_TEXT.changeFailed,
      description: describeApiError(error, ADMIN_TEXT.changeFailed).join(' '),
      type: 'error',
    });
  const done = (after: () => void) => async () => {
    after();
    await refreshAdmin(queryClient);
  };
  const create = useMutation({
    ...createGroupMutation(),
    onSuccess: done(() => setName('')),
    onError: failed,
  });
  const rename = useMutation({
    ...renameGroupMutation(),
    onSuccess: done(() => setRenaming(null)),
    onError: failed,
  });
  const remove = useMutation({
    ...deleteGroupMutation(),
    onSuccess: done(() => setDeleting(null)),
    onError: failed,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) create.mutate({ body: { name } });
  };

  return (
    <Stack gap="4" pt="4">
      <HStack as="form" onSubmit={submit} gap="2" maxW="lg">
        <Input
          aria-label={ADMIN_TEXT.groupName}
          placeholder={ADMIN_TEXT.newGroup}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        <Button type="submit" colorPalette="brand" loading={create.isPending} disabled={!name.trim()}>
          {ADMIN_TEXT.create}
        </Button>
      </HStack>
      {groups.isError && (
        <LoadError
          title={ADMIN_TEXT.groupsError}
          onRetry={() => void groups.refetch()}
          retrying={groups.isFetching}
        />
      )}
      {groups.isPending && <Text color="fg.muted">{ADMIN_TEXT.loadingGroups}</Text>}
      {groups.data?.length === 0 && <Text color="fg.muted">{ADMIN_TEXT.noGroups}</Text>}
      <Stack as="ul" gap="3" listStyleType="none" aria-label={ADMIN_TEXT.groups}>
        {groups.data?.map((group) => (
          <GroupCard
            key={group.id}
            group={group}
            open={open === group.id}
            onToggle={() => setOpen(open === group.id ? null : group.id)}
            onRename={() => setRenaming(group)}
            onDelete={() => setDeleting(group)}
          />
        ))}
      </Stack>
      {renaming && (
        <RenameDialog
          group={renaming}
          pending={rename.isPending}
          onClose={() => setRenaming(null)}
          onRename={(newName) => rename.mutate({ path: { group_id: renaming.id }, body: { name: newName } })}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={ADMIN_TEXT.deleteGroupTitle}
        message={ADMIN_TEXT.deleteGroupMessage(deleting?.name ?? '')}
        confirmLabel={ADMIN_TEXT.delete}
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ path: { group_id: deleting.id } })}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}

function RenameDialog(props: {
  group: Group;
  pending: boolean;
  onClose: () => void;
  onRename: (name: string) => void;
}) {
  const [name, setName] = useState(props.group.name);
  return (
    <FormDialog
      open
      onClose={props.onClose}
      title={`${ADMIN_TEXT.rename} ${props.group.name}`}
      submitLabel={ADMIN_TEXT.rename}
      pending={props.pending}
      onSubmit={(event) => {
        event.preventDefault();
        if (name.trim()) props.onRename(name);
      }}
    >
      <Input
        aria-label={ADMIN_TEXT.groupName}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
      />
    </FormDialog>
  );
}

/** One group: its name and source, its members (opened in place), Rename and Delete when hand-made. */
function GroupCard(props: {
  group: Group;
  open: boolean;
  onToggle: () => void;
  onRename: () => void;
  onDelete: () => void;
}) {
  const { group, open, onToggle, onRename, onDelete } = props;
  return (
    <Card.Root as="li" size="sm" aria-label={group.name}>
      <Card.Body gap="3">
        <HStack gap="2" wrap="wrap">
          <Text fontWeight="medium" flex="1">
            {group.name}
          </Text>
          {group.source === 'oidc' && (
            <Badge variant="outline" title={ADMIN_TEXT.fromProviderHelp}>
              {ADMIN_TEXT.fromProvider}
            </Badge>
          )}
          <Button size="xs" variant="outline" onClick={onToggle} aria-expanded={open}>
            {ADMIN_TEXT.members} ({group.member_count})
          </Button>
          {group.source === 'manual' && (
            <>
              <Button
                size="xs"
                variant="outline"
                onClick={onRename}
                aria-label={`${ADMIN_TEXT.rename} ${group.name}`}
              >
                {ADMIN_TEXT.rename}
              </Button>
              <Button
                size="xs"
                variant="outline"
                colorPalette="red"
                onClick={onDelete}
                aria-label={`${ADMIN_TEXT.delete} ${group.name}`}
              >
                {ADMIN_TEXT.delete}
              </Button>
            </>
          )}
        </HStack>
        {open && <GroupMembers group={group} />}
      </Card.Body>
    </Card.Root>
  );
}
