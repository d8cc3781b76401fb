import { createFileRoute } from '@tanstack/react-router';
import { listServiceActionsOptions } from '../../../features/services/api/services-api';
import { ServiceActionsPage } from '../../../features/services/components/service-actions-page';
import { prefetch } from '../../../lib/prefetch';
import { requireNumericId } from '../../../lib/route-params';

export const Route = createFileRoute('/_layout/services/$Id/actions')({
  beforeLoad: ({ params }) => requireNumericId(params.Id),
  loader: ({ context: { queryClient, accessCodeRequired }, params }) =>
    accessCodeRequired ? undefined : prefetch(queryClient, listServiceActionsOptions(Number(params.Id))),
  pendingComponent: ServiceActions,
  component: ServiceActions,
});

function ServiceActions() {
  const { Id } = Route.useParams();
  return <ServiceActionsPage serviceId={Number(Id)} />;
}
