import { List, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { listAgentsOptions } from '../../../client/@tanstack/react-query.gen';
import type { Service } from '../api/services-api';
import { agentsUsing } from '../services-logic';

/**
 * Disconnect asks first, naming the agents whose tools stop working. The agents come from the
 * agents list (each agent's tools carry their service's name), read only while the dialog is open.
 */
export function DisconnectDialog(props: {
  service: Service | null;
  pending: boolean;
  onConfirm: (service: Service) => void;
  onCancel: () => void;
}) {
  const { service } = props;
  const agents = useQuery({ ...listAgentsOptions(), enabled: service !== null });
  const users = service && agents.data ? agentsUsing(agents.data, service.id) : [];
  return (
    <ConfirmDialog
      open={service !== null}
      title={service ? `Disconnect ${service.name}?` : ''}
      message="The connection and any credentials stored for it are removed. Agents keep its tools but cannot use them until you register the service again."
      confirmLabel="Disconnect"
      pending={props.pending}
      onConfirm={() => service && props.onConfirm(service)}
      onCancel={props.onCancel}
    >
      <Text mt="3" fontWeight="semibold" data-testid="disconnect-agents">
        {agents.isPending
          ? 'Checking which agents use it…'
          : agents.isError
            ? 'The agents that use it could not be loaded.'
            : users.length === 0
              ? 'No agent uses it.'
              : `Used by ${users.length === 1 ? '1 agent' : `${users.length} agents`}:`}
      </Text>
      {users.length > 0 && (
        <List.Root ps="5" mt="1" aria-label="Agents that use it">
          {users.map((agent) => (
            <List.Item key={agent.id} wordBreak="break-word">
              {agent.name}
            </List.Item>
          ))}
        </List.Root>
      )}
    </ConfirmDialog>
  );
}
