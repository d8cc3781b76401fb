import { createFileRoute } from '@tanstack/react-router';
import { servicePagesOptions } from '../../../features/services/api/services-api';
import { ServicesPage } from '../../../features/services/components/services-page';
import { prefetchPages } from '../../../lib/prefetch';
import { pendingCopyOf } from '../../../lib/page-query';

export const Route = createFileRoute('/_layout/services/')({
  loader: ({ context: { queryClient, accessCodeRequired } }) =>
    accessCodeRequired ? undefined : prefetchPages(queryClient, servicePagesOptions()),
  // A first load that takes longer than the router's pending delay shows the page loading.
  pendingComponent: pendingCopyOf(ServicesPage),
  component: ServicesPage,
});
