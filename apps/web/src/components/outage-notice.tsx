import { Alert, Box, Spinner } from '@chakra-ui/react';
import { mostTellingOutage, OUTAGE_NOTICE, type Outage } from '@cadre/contract';
import { useQueryClient, type QueryCache } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { outageOfError } from '../api/api-error';

/**
 * One calm line at the top of every screen while a query waits out an outage (lib/query-client.ts
 * tries it again until it works): the screens keep what they show, and the line goes away by
 * itself once Cadre answers again. Polite, not an alert: nothing is asked of the person.
 */
export function OutageNotice() {
  const queryCache = useQueryClient().getQueryCache();
  const outage = useSyncExternalStore(
    (onChange) => queryCache.subscribe(onChange),
    () => currentOutage(queryCache),
  );
  if (!outage) return null;
  return (
    <Box position="sticky" top="0" zIndex="banner">
      <Alert.Root
        status="warning"
        role="status"
        aria-live="polite"
        borderRadius="0"
        data-testid="outage-notice"
      >
        <Alert.Indicator>
          <Spinner size="sm" />
        </Alert.Indicator>
        <Alert.Title>{OUTAGE_NOTICE[outage]}</Alert.Title>
      </Alert.Root>
    </Box>
  );
}

/** The outage the queries being fetched last failed with (mostTellingOutage picks one). */
const currentOutage = (queryCache: QueryCache): Outage | undefined =>
  mostTellingOutage(
    queryCache
      .getAll()
      .filter((query) => query.state.fetchStatus !== 'idle')
      .map((query) => outageOfError(query.state.fetchFailureReason)),
  );
