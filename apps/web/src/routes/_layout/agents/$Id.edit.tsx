import { createFileRoute } from '@tanstack/react-router';
import { agentOptions } from '../../../features/agents/api/agents-api';
import { AgentFormPage } from '../../../features/agents/components/agent-form-page';
import { ActiveServicesPanel } from '../../../features/services/components/active-services-panel';
import { prefetch } from '../../../lib/prefetch';
import { requireNumericId } from '../../../lib/route-params';

export const Route = createFileRoute('/_layout/agents/$Id/edit')({
  beforeLoad: ({ params }) => requireNumericId(params.Id),
  loader: ({ context: { queryClient, accessCodeRequired }, params }) =>
    accessCodeRequired ? undefined : prefetch(queryClient, agentOptions(Number(params.Id))),
  pendingComponent: EditAgent,
  component: EditAgent,
});

function EditAgent() {
  const { Id } = Route.useParams();
  return <AgentFormPage agentId={Number(Id)} toolPicker={(picker) => <ActiveServicesPanel {...picker} />} />;
}
