import { createFileRoute } from '@tanstack/react-router';
import { listServiceActionsOptions } from '../../../features/services/api/services-api';
import { ServiceActionsPage } from '../../../features/services/components/service-actions-page';
import { objectLoader, requireNumericId } from '../../../lib/route-params';
import { pendingCopyOf } from '../../../lib/page-query';

export const Route = createFileRoute('/_layout/services/$Id/actions')({
  beforeLoad: ({ params }) => requireNumericId(params.Id),
  loader: objectLoader(listServiceActionsOptions),
  pendingComponent: pendingCopyOf(ServiceActions),
  component: ServiceActions,
});

function ServiceActions() {
  return <ServiceActionsPage serviceId={Number(Route.useParams().Id)} />;
}
