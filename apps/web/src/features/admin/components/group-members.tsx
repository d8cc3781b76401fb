import { Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { describeApiError } from '../../../api/api-error';
import { listPeopleOptions } from '../../../client/@tanstack/react-query.gen';
import { Select } from '../../../components/select';
import { toaster } from '../../../components/ui/toaster';
import { ADMIN_TEXT, personName } from '../admin-text';
import {
  addGroupMemberMutation,
  listGroupMembersOptions,
  refreshAdmin,
  removeGroupMemberMutation,
  type Group,
} from '../api/admin-api';

/** The most people offered to add (the API's page limit). */
const CANDIDATES_LIMIT = 1000;

/** A group's members; a hand-made group's can be added and removed here. */
export function GroupMembers({ group }: { group: Group }) {
  const queryClient = useQueryClient();
  const editable = group.source === 'manual';
  const members = useQuery(listGroupMembersOptions({ path: { group_id: group.id } }));
  const people = useQuery({
    ...listPeopleOptions({ query: { limit: CANDIDATES_LIMIT } }),
    enabled: editable,
  });
  const onError = (error: unknown) =>
    toaster.create({
      title: ADMIN_TEXT.changeFailed,
      description: describeApiError(error, ADMIN_TEXT.changeFailed).join(' '),
      type: 'error',
    });
  const onSuccess = () => refreshAdmin(queryClient);
  const add = useMutation({ ...addGroupMemberMutation(), onSuccess, onError });
  const remove = useMutation({ ...removeGroupMemberMutation(), onSuccess, onError });

  if (members.isPending) return <Text color="fg.muted">{ADMIN_TEXT.loadingPeople}</Text>;
  if (members.isError) return <Text color="fg.error">{ADMIN_TEXT.peopleError}</Text>;
  const inGroup = new Set(members.data.map((p) => p.id));
  const candidates = (people.data ?? []).filter((p) => !inGroup.has(p.id));
  return (
    <Stack gap="2">
      {members.data.length === 0 && <Text color="fg.muted">{ADMIN_TEXT.noMembers}</Text>}
      <Stack as="ul" gap="1" listStyleType="none" aria-label={`${ADMIN_TEXT.members} of ${group.name}`}>
        {members.data.map((person) => (
          <HStack as="li" key={person.id} gap="2">
            <Text flex="1" truncate>
              {personName(person)}
            </Text>
            {editable && (
              <Button
                size="xs"
                variant="ghost"
                loading={remove.isPending}
                aria-label={`${ADMIN_TEXT.remove} ${personName(person)}`}
                onClick={() => remove.mutate({ path: { group_id: group.id, user_id: person.id } })}
              >
                {ADMIN_TEXT.remove}
              </Button>
            )}
          </HStack>
        ))}
      </Stack>
      {editable && candidates.length > 0 && (
        <Select
          aria-label={ADMIN_TEXT.addMember}
          size="sm"
          maxW="sm"
          value={0}
          disabled={add.isPending}
          options={[
            { value: 0, label: ADMIN_TEXT.addMember },
            ...candidates.map((p) => ({ value: p.id, label: personName(p) })),
          ]}
          onChange={(id) => id !== 0 && add.mutate({ path: { group_id: group.id, user_id: id } })}
        />
      )}
    </Stack>
  );
}
