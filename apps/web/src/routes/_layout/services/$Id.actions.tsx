import { createFileRoute } from '@tanstack/react-router';
import { listServiceActionsOptions } from '../../../features/services/api/services-api';
import { ServiceActionsPage } from '../../../features/services/components/service-actions-page';
import { objectRoute } from '../../../lib/route-params';
import { pendingCopyOf } from '../../../lib/page-query';

export const Route = createFileRoute('/_layout/services/$Id/actions')({
  ...objectRoute(listServiceActionsOptions),
  pendingComponent: pendingCopyOf(ServiceActions),
  component: ServiceActions,
});

function ServiceActions() {
  return <ServiceActionsPage serviceId={Number(Route.useParams().Id)} />;
}
