import { createFileRoute } from '@tanstack/react-router';
import { agentPagesOptions } from '../../../features/agents/api/agents-api';
import { AgentsPage } from '../../../features/agents/components/agents-page';
import { prefetchPages } from '../../../lib/prefetch';
import { pendingCopyOf } from '../../../lib/page-query';

export const Route = createFileRoute('/_layout/agents/')({
  loader: ({ context: { queryClient, accessCodeRequired } }) =>
    accessCodeRequired ? undefined : prefetchPages(queryClient, agentPagesOptions()),
  // A first load that takes longer than the router's pending delay shows the list's own
  // 'Loading agents...' state (spec section 4).
  pendingComponent: pendingCopyOf(AgentsPage),
  component: AgentsPage,
});
