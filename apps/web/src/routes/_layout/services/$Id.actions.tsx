import { createFileRoute } from '@tanstack/react-router';
import { ServiceActionsPage } from '../../../features/services/components/service-actions-page';
import { requireNumericId } from '../../../lib/route-params';

export const Route = createFileRoute('/_layout/services/$Id/actions')({
  beforeLoad: ({ params }) => requireNumericId(params.Id),
  component: ServiceActions,
});

function ServiceActions() {
  const { Id } = Route.useParams();
  return <ServiceActionsPage serviceId={Number(Id)} />;
}
