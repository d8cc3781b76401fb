import {
  Alert,
  Badge,
  Button,
  Card,
  Flex,
  Heading,
  HStack,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import {} from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useId, useMemo, useRef, useState, type FocusEvent } from 'react';
import { LoadError } from '../../../components/load-error';
import { Logo } from '../../../components/logo';
import { SearchInput } from '../../../components/search-input';
import { useFuzzyFilter } from '../../../lib/fuzzy';
import { servicePagesOptions, type Service } from '../api/services-api';
import { SERVICE_SEARCH_KEYS, SERVICE_TEXT } from '../constants';
import { authKind, authScheme, sortServices } from '../services-logic';
import { useHeldOrder } from '../use-held-order';
import { useServiceOperations } from '../use-service-operations';
import { ApiKeyDialog } from './api-key-dialog';
import { ConnectionUsage } from './connection-usage';
import { CUSTOM_MCP_TEXT, CustomMcpDialog } from './custom-mcp-dialog';
import { DisconnectDialog } from './disconnect-dialog';
import { usePageInfiniteQuery } from '../../../lib/page-query';
import { LoadMore, useRestLoadedWhile } from '../../../components/load-more';
import { useCan } from '../../../lib/role';

/** The service list (spec section 2): search, cards, register and disconnect. */
export function ServicesPage() {
  const services = usePageInfiniteQuery(servicePagesOptions());
  const { refetch } = services;
  const [query, setQuery] = useState('');
  const [apiKeyFor, setApiKeyFor] = useState<Service | null>(null);
  const [addingMcp, setAddingMcp] = useState(false);
  const canRegister = useCan('register_services');
  // The OAuth callback sends the browser back here with the reason when a connection failed.
  const [connectError, setConnectError] = useState(() =>
    typeof window === 'undefined' ? null : new URLSearchParams(window.location.search).get('connect_error'),
  );
  const { register, disconnect, pending } = useServiceOperations();

  // A service connected in another tab (the OAuth page) shows up when the user comes back.
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refetch();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [refetch]);

  // The search matches in the browser over the services loaded: a search loads the remaining pages
  // first, as someone searching the catalogue expects all of it searched (the API has no search).
  const restLoading = useRestLoadedWhile(query.trim() !== '', services);
  const matches = useFuzzyFilter(services.data, query, SERVICE_SEARCH_KEYS);
  const sorted = useMemo(() => sortServices(matches), [matches]);
  const [disconnecting, setDisconnecting] = useState<Service | null>(null);
  // Held while the pointer or the focus is in the grid, or its disconnect question is open.
  const { shown, hold } = useHeldOrder(sorted);
  // The dialog's backdrop takes the pointer away from the grid; it is back over it once the dialog closes.
  const onPointerLeave = () => !disconnecting && hold('pointer', false);
  const onBlur = (event: FocusEvent) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) hold('focus', false);
  };
  const askToDisconnect = (service: Service) => {
    hold('dialog', true);
    setDisconnecting(service);
  };
  const closeDisconnect = () => {
    setDisconnecting(null);
    hold('dialog', false);
  };

  const onRegister = (service: Service) => {
    if (authKind(service) === 'apiKey') setApiKeyFor(service);
    else register.mutate({ service });
  };

  return (
    <Stack gap="6">
      <Flex gap="3" align="center" wrap="wrap">
        <Heading as="h1" size="2xl" flex="1">
          Services
        </Heading>
        {canRegister && (
          <Button variant="outline" size="sm" onClick={() => setAddingMcp(true)}>
            {CUSTOM_MCP_TEXT.open}
          </Button>
        )}
      </Flex>
      {connectError && <ConnectError message={connectError} onDismiss={() => setConnectError(null)} />}
      <SearchInput placeholder={SERVICE_TEXT.searchServices} value={query} onChange={setQuery} />
      {services.isPending || (restLoading && shown.length === 0) ? (
        <SimpleGrid
          columns={{ base: 1, md: 2, xl: 3 }}
          gap="4"
          aria-busy="true"
          role="status"
          aria-label="Loading services"
        >
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} height="220px" rounded="lg" />
          ))}
        </SimpleGrid>
      ) : services.isError && !services.isFetchNextPageError ? (
        <LoadError
          title="Error loading services."
          onRetry={() => void refetch()}
          retrying={services.isFetching}
          retryLabel="Retry"
        />
      ) : shown.length === 0 ? (
        <Text color="fg.muted" py="10" textAlign="center">
          {services.data.length === 0 ? 'No services are available yet.' : 'No services match your search.'}
        </Text>
      ) : (
        <SimpleGrid
          as="ul"
          columns={{ base: 1, md: 2, xl: 3 }}
          gap="4"
          listStyleType="none"
          data-testid="services-grid"
          onPointerEnter={() => hold('pointer', true)}
          onPointerLeave={onPointerLeave}
          onFocus={() => hold('focus', true)}
          onBlur={onBlur}
        >
          {shown.map((service) => (
            <ServiceCard
              key={service.id}
              service={service}
              disabled={pending}
              onRegister={() => onRegister(service)}
              onDisconnect={() => askToDisconnect(service)}
            />
          ))}
        </SimpleGrid>
      )}
      {services.data && <LoadMore query={services} noun="services" />}
      <DisconnectDialog
        service={disconnecting}
        pending={disconnect.isPending}
        onCancel={closeDisconnect}
        onConfirm={(service) => disconnect.mutate(service, { onSettled: closeDisconnect })}
      />
      <CustomMcpDialog open={addingMcp} onClose={() => setAddingMcp(false)} />
      <ApiKeyDialog
        open={apiKeyFor !== null}
        serviceName={apiKeyFor?.name ?? ''}
        disabled={pending}
        onClose={() => setApiKeyFor(null)}
        onSubmit={(apiKey) => (apiKeyFor ? register.mutateAsync({ service: apiKeyFor, apiKey }) : undefined)}
      />
    </Stack>
  );
}

/** Why the last OAuth connection failed, as the callback reported it. */
function ConnectError({ message, onDismiss }: { message: string; onDismiss: () => void }) {
  return (
    <Alert.Root status="error" role="alert">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>The connection was not completed</Alert.Title>
        <Alert.Description>{message}</Alert.Description>
      </Alert.Content>
      <Button size="sm" variant="ghost" ms="auto" onClick={onDismiss}>
        Dismiss
      </Button>
    </Alert.Root>
  );
}

function ServiceCard(props: {
  service: Service;
  disabled: boolean;
  onRegister: () => void;
  onDisconnect: () => void;
}) {
  const { service } = props;
  const active = service.status === 'ACTIVE';
  const usageId = useId();
  // Register and Disconnect are one button that changes: held disabled while the operation runs,
  // it loses the focus, which is given back once it is usable again (after Register, on Disconnect).
  const actionButton = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  useEffect(() => {
    if (!refocus.current || props.disabled) return;
    refocus.current = false;
    if (document.activeElement === document.body || document.activeElement === null)
      actionButton.current?.focus();
  }, [props.disabled, active]);
  const act = (action: () => void) => () => {
    refocus.current = true;
    action();
  };
  // A connection that lapsed (expired) still says when it was used and why it failed.
  const connected = active || service.last_used_at !== null || service.last_error !== null;
  return (
    <Card.Root
      as="li"
      size="sm"
      data-testid="service-card"
      aria-label={service.name}
      aria-describedby={connected ? usageId : undefined}
    >
      <Card.Body gap="3">
        <HStack gap="3">
          <Logo src={service.logo} name={service.name} />
          <Heading as="h2" size="md" lineClamp={1} flex="1">
            {service.name}
          </Heading>
          {active && (
            <Badge colorPalette="green" variant="subtle">
              Connected
            </Badge>
          )}
        </HStack>
        <Text color="fg.muted" fontSize="sm" lineClamp={3} minH="3lh">
          {service.description}
        </Text>
        <Text fontSize="xs" fontFamily="mono">
          {SERVICE_TEXT.statusLine(service.status, authScheme(service))}
        </Text>
        {connected && <ConnectionUsage service={service} id={usageId} />}
      </Card.Body>
      <Card.Footer gap="2" flexWrap="wrap">
        <Flex gap="2" flexWrap="wrap" w="full">
          {active ? (
            <Button
              key="action"
              ref={actionButton}
              size="sm"
              variant="outline"
              colorPalette="red"
              disabled={props.disabled}
              onClick={act(props.onDisconnect)}
              aria-haspopup="dialog"
              aria-label={`${SERVICE_TEXT.disconnect} ${service.name}`}
            >
              {SERVICE_TEXT.disconnect}
            </Button>
          ) : (
            <Button
              key="action"
              ref={actionButton}
              size="sm"
              colorPalette="brand"
              disabled={props.disabled}
              onClick={act(props.onRegister)}
              aria-label={`${SERVICE_TEXT.register} ${service.name}`}
            >
              {SERVICE_TEXT.register}
            </Button>
          )}
          <Button size="sm" variant="ghost" asChild>
            <Link
              to="/services/$Id/actions"
              params={{ Id: String(service.id) }}
              aria-label={`${SERVICE_TEXT.viewTools} of ${service.name}`}
            >
              {SERVICE_TEXT.viewTools}
            </Link>
          </Button>
        </Flex>
      </Card.Footer>
    </Card.Root>
  );
}
