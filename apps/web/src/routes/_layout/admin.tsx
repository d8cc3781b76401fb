import { createFileRoute, redirect } from '@tanstack/react-router';
import { roleCan } from '@cadre/contract';
import { getMeOptions } from '../../client/@tanstack/react-query.gen';
import { AdminPage } from '../../features/admin/components/admin-page';

export const Route = createFileRoute('/_layout/admin')({
  // Only admins see the console; anyone else who types the address lands on the agents list.
  beforeLoad: async ({ context: { queryClient, accessCodeRequired } }) => {
    if (accessCodeRequired) return;
    const me = await queryClient.ensureQueryData(getMeOptions());
    if (!roleCan(me.role, 'administer')) throw redirect({ to: '/agents' });
  },
  component: AdminPage,
});
