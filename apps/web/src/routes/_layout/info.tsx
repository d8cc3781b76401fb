import { createFileRoute } from '@tanstack/react-router';
import { InfoPage } from '../../features/info/components/info-page';

export const Route = createFileRoute('/_layout/info')({
  component: InfoPage,
});
