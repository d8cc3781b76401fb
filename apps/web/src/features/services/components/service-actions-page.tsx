import { Button, Image, Center, Flex, Heading, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import {} from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { FiArrowLeft } from 'react-icons/fi';
import { LoadError } from '../../../components/load-error';
import { SearchInput } from '../../../components/search-input';
import { useFuzzyFilter } from '../../../lib/fuzzy';
import { listServiceActionsOptions } from '../api/services-api';
import { SERVICE_TEXT, TOOL_SEARCH_KEYS } from '../constants';
import { usePageQuery } from '../../../lib/page-query';

/** The tools of one service (spec section 2): logo and app name, search, and a Name/Description table. */
export function ServiceActionsPage({ serviceId }: { serviceId: number }) {
  const actions = usePageQuery(listServiceActionsOptions(serviceId));
  const [query, setQuery] = useState('');
  const shown = useFuzzyFilter(actions.data, query, TOOL_SEARCH_KEYS);
  const first = actions.data?.[0];
  const appName = first?.app_name || SERVICE_TEXT.unknownApp;

  return (
    <Stack gap="6">
      <Button asChild variant="ghost" size="sm" alignSelf="flex-start">
        <Link to="/services">
          <FiArrowLeft aria-hidden="true" /> Services
        </Link>
      </Button>
      <Flex align="center" gap="4" minH="16">
        {actions.isPending ? (
          <Skeleton boxSize="16" rounded="md" />
        ) : first?.logo ? (
          <Image src={first.logo} alt={`${appName} logo`} boxSize="16" objectFit="contain" />
        ) : (
          <Center
            boxSize="16"
            borderWidth="1px"
            rounded="md"
            fontSize="xs"
            color="fg.muted"
            textAlign="center"
          >
            {SERVICE_TEXT.noLogo}
          </Center>
        )}
        <Heading as="h1" size="2xl">
          {actions.isPending ? <Skeleton height="8" width="48" /> : appName}
        </Heading>
      </Flex>
      <SearchInput placeholder={SERVICE_TEXT.searchTools} value={query} onChange={setQuery} />
      {actions.isError ? (
        <LoadError
          title="Error loading tools."
          onRetry={() => void actions.refetch()}
          retrying={actions.isFetching}
          retryLabel="Retry"
        />
      ) : (
        <Table.ScrollArea borderWidth="1px" rounded="md" tabIndex={0} aria-label="Tools of this service">
          <Table.Root size="sm" striped aria-busy={actions.isPending}>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader w={{ base: '40%', md: '30%' }}>Name</Table.ColumnHeader>
                <Table.ColumnHeader>Description</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {actions.isPending ? (
                Array.from({ length: 5 }, (_, i) => (
                  <Table.Row key={i}>
                    <Table.Cell>
                      <Skeleton height="4" />
                    </Table.Cell>
                    <Table.Cell>
                      <Skeleton height="4" />
                    </Table.Cell>
                  </Table.Row>
                ))
              ) : shown.length === 0 ? (
                <Table.Row>
                  <Table.Cell colSpan={2}>
                    <Text color="fg.muted" py="6" textAlign="center">
                      {actions.data.length === 0
                        ? 'This service has no tools.'
                        : 'No tools match your search.'}
                    </Text>
                  </Table.Cell>
                </Table.Row>
              ) : (
                shown.map((action) => (
                  <Table.Row key={action.id}>
                    <Table.Cell fontWeight="medium" verticalAlign="top">
                      {action.display_name || action.name}
                    </Table.Cell>
                    <Table.Cell color="fg.muted">{action.description}</Table.Cell>
                  </Table.Row>
                ))
              )}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      )}
    </Stack>
  );
}
