import { createFileRoute } from '@tanstack/react-router';
import { AgentFormPage } from '../../../features/agents/components/agent-form-page';
import { ActiveServicesPanel } from '../../../features/services/components/active-services-panel';
import { requireNumericId } from '../../../lib/route-params';

export const Route = createFileRoute('/_layout/agents/$Id/edit')({
  beforeLoad: ({ params }) => requireNumericId(params.Id),
  component: EditAgent,
});

function EditAgent() {
  const { Id } = Route.useParams();
  return (
    <AgentFormPage
      agentId={Number(Id)}
      toolPicker={(onAddTool) => <ActiveServicesPanel onAddTool={onAddTool} />}
    />
  );
}
