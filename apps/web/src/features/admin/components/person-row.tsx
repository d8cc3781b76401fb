import { Badge, Button, HStack, Stack, Table, Text, Wrap } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { describeApiError } from '../../../api/api-error';
import { CARD_CELL, CARD_ROW } from '../../../components/card-table';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Select } from '../../../components/select';
import { toaster } from '../../../components/ui/toaster';
import { ADMIN_TEXT, personName, ROLE_OPTIONS } from '../admin-text';
import { refreshAdmin, updatePersonMutation, type Person } from '../api/admin-api';

/** One account in the People list, with its role picker and its Disable/Enable and Delete buttons. */
export function PersonRow({ person, onDelete }: { person: Person; onDelete: () => void }) {
  const queryClient = useQueryClient();
  const name = personName(person);
  const [confirmingDisable, setConfirmingDisable] = useState(false);
  const update = useMutation({
    ...updatePersonMutation(),
    onSuccess: () => refreshAdmin(queryClient),
    onError: (error) =>
      toaster.create({
        title: ADMIN_TEXT.changeFailed,
        description: describeApiError(error, ADMIN_TEXT.changeFailed).join(' '),
        type: 'error',
      }),
    onSettled: () => setConfirmingDisable(false),
  });
  const change = (body: { role?: Person['role']; disabled?: boolean }) =>
    update.mutate({ path: { user_id: person.id }, body });

  return (
    <Table.Row
      {...CARD_ROW}
      aria-label={name}
      gridTemplateColumns="minmax(0, 1fr) auto"
      gridTemplateAreas={`"who actions" "role role" "groups groups" "active active" "usage usage"`}
      gap="1.5"
    >
      <Table.Cell {...CARD_CELL} gridArea="who">
        <Stack gap="0" minW="0">
          <HStack gap="2">
            <Text fontWeight="medium" truncate>
              {name}
            </Text>
            {person.disabled_at && <Badge colorPalette="red">{ADMIN_TEXT.disabled}</Badge>}
          </HStack>
          {person.email && person.name && (
            <Text fontSize="sm" color="fg.muted" truncate>
              {person.email}
            </Text>
          )}
        </Stack>
      </Table.Cell>
      <Table.Cell {...CARD_CELL} gridArea="role">
        <Select
          aria-label={ADMIN_TEXT.roleOf(name)}
          size="sm"
          maxW="36"
          value={person.role}
          options={ROLE_OPTIONS}
          disabled={update.isPending}
          onChange={(role) => change({ role })}
        />
      </Table.Cell>
      <Table.Cell {...CARD_CELL} gridArea="groups">
        <Wrap gap="1">
          {person.groups.map((g) => (
            <Badge key={g.id} variant={g.source === 'oidc' ? 'outline' : 'subtle'}>
              {g.name}
            </Badge>
          ))}
        </Wrap>
      </Table.Cell>
      <Table.Cell {...CARD_CELL} gridArea="active" color="fg.muted">
        {person.last_active_at ? new Date(person.last_active_at).toLocaleString() : ADMIN_TEXT.never}
      </Table.Cell>
      <Table.Cell {...CARD_CELL} gridArea="usage" color="fg.muted">
        {ADMIN_TEXT.tokens(person.month_tokens, person.month_cost)}
      </Table.Cell>
      <Table.Cell {...CARD_CELL} gridArea="actions" textAlign="end">
        <HStack gap="2" justify="end">
          <Button
            size="xs"
            variant="outline"
            loading={update.isPending}
            aria-label={`${person.disabled_at ? ADMIN_TEXT.enable : ADMIN_TEXT.disable} ${name}`}
            onClick={() => (person.disabled_at ? change({ disabled: false }) : setConfirmingDisable(true))}
          >
            {person.disabled_at ? ADMIN_TEXT.enable : ADMIN_TEXT.disable}
          </Button>
          <Button
            size="xs"
            variant="outline"
            colorPalette="red"
            aria-label={`${ADMIN_TEXT.delete} ${name}`}
            onClick={onDelete}
          >
            {ADMIN_TEXT.delete}
          </Button>
        </HStack>
        <ConfirmDialog
          open={confirmingDisable}
          title={ADMIN_TEXT.disableTitle}
          message={ADMIN_TEXT.disableMessage(name)}
          confirmLabel={ADMIN_TEXT.disable}
          pending={update.isPending}
          onConfirm={() => change({ disabled: true })}
          onCancel={() => setConfirmingDisable(false)}
        />
      </Table.Cell>
    </Table.Row>
  );
}
