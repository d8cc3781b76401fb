import { createFileRoute } from '@tanstack/react-router';
import { DemosRedirectPage } from '../../features/demos/components/demos-redirect-page';

export const Route = createFileRoute('/public/demosRedirect')({
  validateSearch: (search: Record<string, unknown>): { demo?: string } =>
    typeof search.demo === 'string' ? { demo: search.demo } : {},
  component: DemosRedirect,
});

function DemosRedirect() {
  const { demo } = Route.useSearch();
  return <DemosRedirectPage demo={demo} />;
}
