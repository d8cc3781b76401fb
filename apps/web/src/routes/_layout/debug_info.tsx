import { createFileRoute } from '@tanstack/react-router';
import { DebugPage } from '../../features/debug/components/debug-page';

export const Route = createFileRoute('/_layout/debug_info')({
  component: DebugPage,
});
