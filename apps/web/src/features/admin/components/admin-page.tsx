import { Button, HStack, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { FiShield } from 'react-icons/fi';
import { PageHeader } from '../../../components/page-header';
import { ADMIN_TEXT } from '../admin-text';
import { AccessCodesSection } from './access-codes-section';
import { GroupsSection } from './groups-section';
import { PeopleSection } from './people-section';
import { SettingsSection } from './settings-section';

// Buttons rather than Chakra's Tabs: the theme carries only the recipes the app uses (its size is
// the first download's), and a row of buttons needs none.
const SECTIONS = [
  { id: 'people', label: ADMIN_TEXT.people, Section: PeopleSection },
  { id: 'groups', label: ADMIN_TEXT.groups, Section: GroupsSection },
  { id: 'access-codes', label: ADMIN_TEXT.accessCodes, Section: AccessCodesSection },
  { id: 'settings', label: ADMIN_TEXT.settings, Section: SettingsSection },
] as const;

/** The admin console (`/admin`, admins only): People, Groups, Access codes and the workspace's settings. */
export function AdminPage() {
  const [shown, setShown] = useState<(typeof SECTIONS)[number]['id']>('people');
  const { Section } = SECTIONS.find((s) => s.id === shown)!;
  return (
    <Stack gap="6" pb="10">
      <PageHeader icon={FiShield} title={ADMIN_TEXT.title} intro={ADMIN_TEXT.intro} />
      <HStack role="group" aria-label="Admin sections" gap="2" wrap="wrap">
        {SECTIONS.map((s) => (
          <Button
            key={s.id}
            size="sm"
            variant={s.id === shown ? 'solid' : 'outline'}
            colorPalette={s.id === shown ? 'brand' : undefined}
            aria-pressed={s.id === shown}
            onClick={() => setShown(s.id)}
          >
            {s.label}
          </Button>
        ))}
      </HStack>
      <Section />
    </Stack>
  );
}
