import { createFileRoute } from '@tanstack/react-router';
import { agentOptions } from '../../../features/agents/api/agents-api';
import { AgentFormPage } from '../../../features/agents/components/agent-form-page';
import { editorSearch } from '../../../features/agents/editor-sections';
import { ActiveServicesPanel } from '../../../features/services/components/active-services-panel';
import { objectLoader, requireNumericId } from '../../../lib/route-params';
import { pendingCopyOf } from '../../../lib/page-query';

export const Route = createFileRoute('/_layout/agents/$Id/edit')({
  beforeLoad: ({ params }) => requireNumericId(params.Id),
  loader: objectLoader(agentOptions),
  validateSearch: editorSearch,
  pendingComponent: pendingCopyOf(EditAgent),
  component: EditAgent,
});

function EditAgent() {
  const { Id } = Route.useParams();
  const { section } = Route.useSearch();
  return (
    <AgentFormPage
      agentId={Number(Id)}
      section={section}
      toolPicker={(picker) => <ActiveServicesPanel {...picker} />}
    />
  );
}
