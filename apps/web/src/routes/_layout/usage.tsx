import { createFileRoute } from '@tanstack/react-router';
import { getUsageOptions } from '../../features/usage/api/usage-api';
import { UsagePage } from '../../features/usage/components/usage-page';
import { usageQuery } from '../../features/usage/usage-logic';
import { prefetch } from '../../lib/prefetch';
import { pendingCopyOf } from '../../lib/page-query';

export const Route = createFileRoute('/_layout/usage')({
  // The screen's first view: the last 30 days by day.
  loader: ({ context: { queryClient, accessCodeRequired } }) =>
    accessCodeRequired ? undefined : prefetch(queryClient, getUsageOptions({ query: usageQuery(30, 'day') })),
  pendingComponent: pendingCopyOf(UsagePage),
  component: UsagePage,
});
