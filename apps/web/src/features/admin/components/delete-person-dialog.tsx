import { Button, Field, Input, Stack, Text } from '@chakra-ui/react';
import { deletionConfirmationOf } from '@cadre/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { describeApiError } from '../../../api/api-error';
import { listPeopleOptions } from '../../../client/@tanstack/react-query.gen';
import { DialogShell } from '../../../components/form-dialog';
import { Select } from '../../../components/select';
import { ADMIN_TEXT, personName } from '../admin-text';
import { deletePersonMutation, refreshAdmin, type Person } from '../api/admin-api';

/** The most people offered to receive the agents (the API's page limit). */
const HEIRS_LIMIT = 1000;

/**
 * Deleting an account: who receives its agents (or deleting them too), then the account's email
 * typed again before Delete is enabled.
 */
export function DeletePersonDialog({ person, onClose }: { person: Person | null; onClose: () => void }) {
  return person ? <DeleteForm key={person.id} person={person} onClose={onClose} /> : null;
}

function DeleteForm({ person, onClose }: { person: Person; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState('');
  const [heir, setHeir] = useState<number>(0);
  const others = useQuery({
    ...listPeopleOptions({ query: { limit: HEIRS_LIMIT } }),
    select: (people) => people.filter((p) => p.id !== person.id && !p.disabled_at),
  });
  const remove = useMutation({
    ...deletePersonMutation(),
    onSuccess: async () => {
      await refreshAdmin(queryClient);
      onClose();
    },
  });
  const expected = deletionConfirmationOf(person);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (typed !== expected) return;
    remove.mutate({
      path: { user_id: person.id },
      body: { confirmation: typed, agents_to: heir === 0 ? null : heir },
    });
  };
  const options = [
    { value: 0, label: ADMIN_TEXT.deleteAgents },
    ...(others.data ?? []).map((p) => ({ value: p.id, label: ADMIN_TEXT.giveAgentsTo(personName(p)) })),
  ];
  return (
    <DialogShell
      open
      role="alertdialog"
      placement="center"
      onClose={onClose}
      title={ADMIN_TEXT.deleteTitle}
      onSubmit={submit}
      footer={
        <>
          <Button variant="outline" type="button" onClick={onClose} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button type="submit" colorPalette="red" disabled={typed !== expected} loading={remove.isPending}>
            {ADMIN_TEXT.delete}
          </Button>
        </>
      }
    >
      <Stack gap="4">
        <Text>{ADMIN_TEXT.deleteIntro(personName(person))}</Text>
        <Field.Root>
          <Field.Label>{ADMIN_TEXT.agentsTo}</Field.Label>
          <Select aria-label={ADMIN_TEXT.agentsTo} value={heir} options={options} onChange={setHeir} />
        </Field.Root>
        <Field.Root invalid={remove.isError}>
          <Field.Label>{ADMIN_TEXT.confirmLabel(expected)}</Field.Label>
          <Input value={typed} onChange={(e) => setTyped(e.currentTarget.value)} autoComplete="off" />
          {remove.isError && (
            <Field.ErrorText>
              {describeApiError(remove.error, ADMIN_TEXT.changeFailed).join(' ')}
            </Field.ErrorText>
          )}
        </Field.Root>
      </Stack>
    </DialogShell>
  );
}
