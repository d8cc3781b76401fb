import { createFileRoute } from '@tanstack/react-router';
import { AgentsPage } from '../../../features/agents/components/agents-page';

export const Route = createFileRoute('/_layout/agents/')({
  component: AgentsPage,
});
