import { createFileRoute } from '@tanstack/react-router';
import { AgentFormPage } from '../../../features/agents/components/agent-form-page';
import { ActiveServicesPanel } from '../../../features/services/components/active-services-panel';

export const Route = createFileRoute('/_layout/agents/create')({
  component: CreateAgent,
});

function CreateAgent() {
  return <AgentFormPage toolPicker={(picker) => <ActiveServicesPanel {...picker} />} />;
}
