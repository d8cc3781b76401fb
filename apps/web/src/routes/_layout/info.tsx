import { createFileRoute } from '@tanstack/react-router';
import { DataRights } from '../../features/account';
import { useAuthSession } from '../../features/auth';
import { ReadyAssistantOffer, TemplateGallery } from '../../features/agents/components/template-gallery';
import { InfoPage } from '../../features/info/components/info-page';

export const Route = createFileRoute('/_layout/info')({
  component: Info,
});

function Info() {
  // Deleting the account signs out at the identity provider too, as from the user menu.
  const { signOut } = useAuthSession();
  return (
    <InfoPage
      dataRights={<DataRights signOut={signOut} />}
      readyAssistant={<ReadyAssistantOffer />}
      templates={<TemplateGallery />}
    />
  );
}
