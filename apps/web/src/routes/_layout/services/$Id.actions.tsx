import { createFileRoute } from '@tanstack/react-router';
import { listServiceActionsOptions } from '../../../features/services/api/services-api';
import { ServiceActionsPage } from '../../../features/services/components/service-actions-page';
import { objectRoute } from '../../../lib/route-params';

export const Route = createFileRoute('/_layout/services/$Id/actions')({
  ...objectRoute(listServiceActionsOptions),
  pendingComponent: ServiceActions,
  component: ServiceActions,
});

function ServiceActions() {
  return <ServiceActionsPage serviceId={Number(Route.useParams().Id)} />;
}
