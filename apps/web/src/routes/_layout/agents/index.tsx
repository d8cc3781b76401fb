import { createFileRoute } from '@tanstack/react-router';
import { listAgentsOptions } from '../../../features/agents/api/agents-api';
import { AgentsPage } from '../../../features/agents/components/agents-page';
import { prefetch } from '../../../lib/prefetch';
import { pendingCopyOf } from '../../../lib/page-query';

export const Route = createFileRoute('/_layout/agents/')({
  loader: ({ context: { queryClient, accessCodeRequired } }) =>
    accessCodeRequired ? undefined : prefetch(queryClient, listAgentsOptions()),
  // A first load that takes longer than the router's pending delay shows the list's own
  // 'Loading agents...' state (spec section 4).
  pendingComponent: pendingCopyOf(AgentsPage),
  component: AgentsPage,
});
