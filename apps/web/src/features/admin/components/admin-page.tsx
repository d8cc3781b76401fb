import { Stack, Tabs } from '@chakra-ui/react';
import { FiShield } from 'react-icons/fi';
import { PageHeader } from '../../../components/page-header';
import { ADMIN_TEXT } from '../admin-text';
import { AccessCodesSection } from './access-codes-section';
import { GroupsSection } from './groups-section';
import { PeopleSection } from './people-section';
import { SettingsSection } from './settings-section';

/** The admin console (`/admin`, admins only): People, Groups, Access codes and the workspace's settings. */
export function AdminPage() {
  return (
    <Stack gap="6" pb="10">
      <PageHeader icon={FiShield} title={ADMIN_TEXT.title} intro={ADMIN_TEXT.intro} />
      <Tabs.Root defaultValue="people" lazyMount>
        <Tabs.List>
          <Tabs.Trigger value="people">{ADMIN_TEXT.people}</Tabs.Trigger>
          <Tabs.Trigger value="groups">{ADMIN_TEXT.groups}</Tabs.Trigger>
          <Tabs.Trigger value="access-codes">{ADMIN_TEXT.accessCodes}</Tabs.Trigger>
          <Tabs.Trigger value="settings">{ADMIN_TEXT.settings}</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="people">
          <PeopleSection />
        </Tabs.Content>
        <Tabs.Content value="groups">
          <GroupsSection />
        </Tabs.Content>
        <Tabs.Content value="access-codes">
          <AccessCodesSection />
        </Tabs.Content>
        <Tabs.Content value="settings">
          <SettingsSection />
        </Tabs.Content>
      </Tabs.Root>
    </Stack>
  );
}
