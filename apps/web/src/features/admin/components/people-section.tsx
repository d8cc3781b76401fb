import { Center, HStack, Stack, Table, Text } from '@chakra-ui/react';
import type { Role } from '@cadre/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useDeferredValue, useState, type ReactNode } from 'react';
import { CardTable, type CardColumn } from '../../../components/card-table';
import { LoadError } from '../../../components/load-error';
import { LoadMore } from '../../../components/load-more';
import { SearchInput } from '../../../components/search-input';
import { Select } from '../../../components/select';
import { ADMIN_TEXT, ROLE_OPTIONS } from '../admin-text';
import { peoplePagesOptions, type Person } from '../api/admin-api';
import { DeletePersonDialog } from './delete-person-dialog';
import { PersonRow } from './person-row';

const COLUMNS: readonly CardColumn[] = [
  ...['Person', 'Role', 'Groups', 'Last active', 'This month'].map((label) => ({ label })),
  { label: 'Actions', textAlign: 'end' },
];

const ROLE_FILTER = [{ value: '', label: ADMIN_TEXT.anyRole }, ...ROLE_OPTIONS] as const;

/** People: search and page through accounts; change a role, disable, enable or delete one. */
export function PeopleSection() {
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<Role | ''>('');
  // Typing searches the server once the input settles, not on every key.
  const q = useDeferredValue(search.trim());
  const people = useInfiniteQuery(peoplePagesOptions({ ...(q && { q }), ...(role && { role }) }));
  const [deleting, setDeleting] = useState<Person | null>(null);

  let body: ReactNode;
  if (people.isPending) body = <StateRow>{ADMIN_TEXT.loadingPeople}</StateRow>;
  else if (people.isError && !people.isFetchNextPageError) body = null;
  else if (!people.data?.length) body = <StateRow>{ADMIN_TEXT.noPeople}</StateRow>;
  else body = people.data.map((p) => <PersonRow key={p.id} person={p} onDelete={() => setDeleting(p)} />);

  return (
    <Stack gap="4" pt="4">
      <HStack gap="3" wrap="wrap">
        <SearchInput placeholder={ADMIN_TEXT.search} value={search} onChange={setSearch} />
        <Select
          aria-label="Role"
          size="sm"
          maxW="40"
          value={role}
          options={ROLE_FILTER}
          onChange={(value) => setRole(value)}
        />
      </HStack>
      {people.isError && !people.isFetchNextPageError && (
        <LoadError
          title={ADMIN_TEXT.peopleError}
          onRetry={() => void people.refetch()}
          retrying={people.isFetching}
        />
      )}
      <CardTable label={ADMIN_TEXT.people} busy={people.isPending} columns={COLUMNS}>
        {body}
      </CardTable>
      {people.data && <LoadMore query={people} noun="people" />}
      <DeletePersonDialog person={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}

function StateRow({ children }: { children: ReactNode }) {
  return (
    <Table.Row role="row" display={{ base: 'block', lg: 'table-row' }}>
      <Table.Cell role="cell" colSpan={COLUMNS.length} display={{ base: 'block', lg: 'table-cell' }}>
        <Center minH="24" color="fg.muted">
          <Text>{children}</Text>
        </Center>
      </Table.Cell>
    </Table.Row>
  );
}
