import {
  Badge,
  Box,
  Button,
  Flex,
  IconButton,
  Portal,
  Skeleton,
  Stack,
  Text,
  Tooltip,
} from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { FiCheck, FiPlus, FiX } from 'react-icons/fi';
import { Section } from '../../../components/section';
import { DialogShell } from '../../../components/form-dialog';
import { LoadError } from '../../../components/load-error';
import { Logo } from '../../../components/logo';
import { SearchInput } from '../../../components/search-input';
import { useFuzzyFilter } from '../../../lib/fuzzy';
import {
  listActiveServicesOptions,
  listServiceActionsOptions,
  type Service,
  type ServiceAction,
} from '../api/services-api';
import { ACTION_SEARCH_KEYS, ACTIONS_LIST_MAX_HEIGHT, SERVICE_TEXT } from '../constants';
import { sortByDisplayName } from '../services-logic';

interface ToolChoice {
  /** The tools the agent already has: shown as added, with a way to remove them. */
  selectedIds: ReadonlySet<number>;
  onAddTool: (action: ServiceAction) => void;
  onRemoveTool: (actionId: number) => void;
}

/** A button as tall as its content (a logo and a name), its content at the start. */
const TALL_START_BUTTON = { justifyContent: 'flex-start', h: 'auto', py: '2' } as const;

/**
 * The agent form's right panel (spec section 2): the user's active services; a click opens the
 * service's actions, and each action's add button hands it to the form.
 */
export function ActiveServicesPanel(choice: ToolChoice) {
  const services = useQuery(listActiveServicesOptions());
  // The dialog stays mounted while it closes, so that it gives focus back to the service's button
  // that opened it (unmounted at once, focus fell to the page).
  const [service, setService] = useState<Service | null>(null);
  const [open, setOpen] = useState(false);

  return (
    <Section
      title={SERVICE_TEXT.activeServices}
      hint={SERVICE_TEXT.activeServicesHint}
      headingSize="md"
      borderWidth="1px"
      rounded="lg"
      p="4"
    >
      {services.isPending ? (
        <Stack gap="2" role="status" aria-busy="true" aria-label="Loading active services">
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} height="12" rounded="md" />
          ))}
        </Stack>
      ) : services.isError ? (
        <LoadError title="Error loading services." />
      ) : services.data.length === 0 ? (
        <Text fontSize="sm">No active services yet. Register a service on the Services page first.</Text>
      ) : (
        <Stack as="ul" gap="2" listStyleType="none">
          {services.data.map((service) => (
            <li key={service.id}>
              <Button
                variant="outline"
                w="full"
                {...TALL_START_BUTTON}
                onClick={() => {
                  setService(service);
                  setOpen(true);
                }}
              >
                <Logo src={service.logo} name={service.name} size="8" />
                <Text truncate>{service.name}</Text>
              </Button>
            </li>
          ))}
        </Stack>
      )}
      {service && (
        <ServiceActionsDialog service={service} open={open} onClose={() => setOpen(false)} {...choice} />
      )}
    </Section>
  );
}

function ServiceActionsDialog(props: ToolChoice & { service: Service; open: boolean; onClose: () => void }) {
  const actions = useQuery(listServiceActionsOptions(props.service.id));
  const [query, setQuery] = useState('');
  const matches = useFuzzyFilter(actions.data, query, ACTION_SEARCH_KEYS);
  const shown = useMemo(() => sortByDisplayName(matches), [matches]);

  return (
    <DialogShell
      open={props.open}
      onClose={props.onClose}
      title={SERVICE_TEXT.actionsFor(props.service.name)}
      size="lg"
      scrollInside
    >
      <Stack gap="3">
        <SearchInput placeholder={SERVICE_TEXT.searchActions} value={query} onChange={setQuery} />
        <Box maxH={ACTIONS_LIST_MAX_HEIGHT} overflowY="auto" data-testid="actions-list">
          {actions.isPending ? (
            <Stack gap="2" role="status" aria-busy="true" aria-label="Loading actions">
              {Array.from({ length: 4 }, (_, i) => (
                <Skeleton key={i} height="10" />
              ))}
            </Stack>
          ) : actions.isError ? (
            <LoadError title="Error loading actions." />
          ) : shown.length === 0 ? (
            <Text color="fg.muted" py="4">
              {actions.data.length === 0 ? 'This service has no actions.' : 'No actions match your search.'}
            </Text>
          ) : (
            <Stack as="ul" gap="1" listStyleType="none">
              {shown.map((action) => (
                <Flex
                  as="li"
                  key={action.id}
                  align="center"
                  gap="2"
                  py="1"
                  px="2"
                  rounded="md"
                  _hover={{ bg: 'bg.muted' }}
                >
                  <Tooltip.Root openDelay={300} positioning={{ placement: 'top-start' }}>
                    <Tooltip.Trigger asChild>
                      <Text flex="1" tabIndex={0} truncate>
                        {action.display_name}
                      </Text>
                    </Tooltip.Trigger>
                    <Portal>
                      <Tooltip.Positioner>
                        <Tooltip.Content maxW="sm">
                          {action.description || action.display_name}
                        </Tooltip.Content>
                      </Tooltip.Positioner>
                    </Portal>
                  </Tooltip.Root>
                  {/* One button that turns from Add into Remove, so the focus stays on it. */}
                  {props.selectedIds.has(action.id) && (
                    <Badge colorPalette="green" variant="subtle">
                      <FiCheck aria-hidden="true" /> {SERVICE_TEXT.added}
                    </Badge>
                  )}
                  {props.selectedIds.has(action.id) ? (
                    <IconButton
                      key="toggle"
                      size="xs"
                      variant="ghost"
                      aria-label={`Remove ${action.display_name}`}
                      onClick={() => props.onRemoveTool(action.id)}
                    >
                      <FiX />
                    </IconButton>
                  ) : (
                    <IconButton
                      key="toggle"
                      size="xs"
                      variant="subtle"
                      colorPalette="brand"
                      aria-label={`Add ${action.display_name}`}
                      onClick={() => props.onAddTool(action)}
                    >
                      <FiPlus />
                    </IconButton>
                  )}
                </Flex>
              ))}
            </Stack>
          )}
        </Box>
      </Stack>
    </DialogShell>
  );
}
