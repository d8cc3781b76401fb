import { Button, HStack, IconButton, Link as ChakraLink, Menu, Portal, Table, Text } from '@chakra-ui/react';
import { AgentAvatar } from '@cadre/ui';
import { Link, useNavigate } from '@tanstack/react-router';
import {
  FiAlertTriangle,
  FiCopy,
  FiDownload,
  FiEdit2,
  FiMessageSquare,
  FiMoreVertical,
  FiTrash2,
} from 'react-icons/fi';
import { CARD_CELL, CARD_ROW } from '../../../components/card-table';
import type { Agent } from '../api/agents-api';
import { AGENT_TEXT, EXCHANGE_TEXT } from '../constants';

const NAME_CELL = { gridArea: 'name', fontWeight: 'medium' } as const;
/** Two lines of the description on a card, one truncated line in the table (the width left over). */
const DESCRIPTION_CELL = {
  gridArea: 'desc',
  color: 'fg.muted',
  truncate: { base: false, lg: true },
  lineClamp: { base: 2, lg: 'none' },
} as const;

/**
 * One agent in the list: Start a chat, its name and description, its tools (and the services to
 * reconnect), and its menu: Edit, Duplicate, Export, Delete.
 */
export function AgentRow({
  agent,
  onShowTools,
  onDuplicate,
  onExport,
  onDelete,
  canBuild,
  duplicating,
  exporting,
}: {
  agent: Agent;
  onShowTools: () => void;
  onDuplicate: () => void;
  onExport: () => void;
  onDelete: () => void;
  /** The role may change agents: Edit, Duplicate and Delete are offered (Export always is). */
  canBuild: boolean;
  duplicating: boolean;
  exporting: boolean;
}) {
  const navigate = useNavigate();
  const stale = [...new Set(agent.tools.filter((t) => t.needs_reconnecting).map((t) => t.app_name))];
  return (
    <Table.Row
      {...CARD_ROW}
      data-testid="agent-row"
      // A card on a phone: name and menu, the description, then Start and the tools.
      gridTemplateColumns="minmax(0, 1fr) auto"
      gridTemplateAreas={`"name menu" "desc desc" "tools tools" "start start"`}
    >
      <Table.Cell {...CARD_CELL} gridArea="start">
        <Button
          size="xs"
          colorPalette="brand"
          w={{ base: 'full', lg: 'auto' }}
          onClick={() =>
            void navigate({ to: '/agents/$Id/chat/{-$threadId}', params: { Id: String(agent.id) } })
          }
          aria-label={`${AGENT_TEXT.start} chat with ${agent.name}`}
        >
          <FiMessageSquare aria-hidden="true" /> {AGENT_TEXT.start}
        </Button>
      </Table.Cell>
      <Table.Cell {...CARD_CELL} {...NAME_CELL} title={agent.name}>
        <HStack gap="2" minW="0">
          <AgentAvatar agent={agent} size="sm" />
          <Text truncate>{agent.name}</Text>
        </HStack>
      </Table.Cell>
      <Table.Cell {...CARD_CELL} {...DESCRIPTION_CELL} title={agent.description}>
        {agent.description}
      </Table.Cell>
      <Table.Cell {...CARD_CELL} gridArea="tools">
        <HStack gap="2" wrap="wrap">
          <Button
            size="xs"
            variant="outline"
            onClick={onShowTools}
            aria-label={`${AGENT_TEXT.toolsButton(agent.tools.length)} of ${agent.name}`}
          >
            {AGENT_TEXT.toolsButton(agent.tools.length)}
          </Button>
          {stale.length > 0 && (
            <ChakraLink
              asChild
              fontSize="xs"
              whiteSpace="nowrap"
              // A touch target of at least 24 px (WCAG 2.2 target size).
              minH="6"
              color={{ _light: 'orange.700', _dark: 'orange.300' }}
              aria-label={`${AGENT_TEXT.needsReconnecting}: ${AGENT_TEXT.reconnect(stale.join(', '))}`}
              title={AGENT_TEXT.reconnect(stale.join(', '))}
            >
              <Link to="/services">
                <FiAlertTriangle aria-hidden="true" /> {AGENT_TEXT.needsReconnecting}
              </Link>
            </ChakraLink>
          )}
        </HStack>
      </Table.Cell>
      <Table.Cell {...CARD_CELL} gridArea="menu" textAlign="end">
        <Menu.Root
          onSelect={(details) => {
            if (details.value === 'edit')
              void navigate({ to: '/agents/$Id/edit', params: { Id: String(agent.id) } });
            if (details.value === 'duplicate') onDuplicate();
            if (details.value === 'export') onExport();
            if (details.value === 'delete') onDelete();
          }}
        >
          <Menu.Trigger asChild>
            <IconButton size="xs" variant="ghost" aria-label={`Actions for ${agent.name}`}>
              <FiMoreVertical />
            </IconButton>
          </Menu.Trigger>
          <Portal>
            <Menu.Positioner>
              <Menu.Content>
                <AgentMenuItems canBuild={canBuild} duplicating={duplicating} exporting={exporting} />
              </Menu.Content>
            </Menu.Positioner>
          </Portal>
        </Menu.Root>
      </Table.Cell>
    </Table.Row>
  );
}

/** The agent menu's items: Export for everyone, Edit, Duplicate and Delete when the role may build. */
function AgentMenuItems(props: { canBuild: boolean; duplicating: boolean; exporting: boolean }) {
  const { canBuild, duplicating, exporting } = props;
  return (
    <>
      {canBuild && (
        <>
          <Menu.Item value="edit">
            <FiEdit2 aria-hidden="true" /> {AGENT_TEXT.edit}
          </Menu.Item>
          <Menu.Item value="duplicate" disabled={duplicating}>
            <FiCopy aria-hidden="true" /> {AGENT_TEXT.duplicate}
          </Menu.Item>
        </>
      )}
      <Menu.Item value="export" disabled={exporting}>
        <FiDownload aria-hidden="true" /> {EXCHANGE_TEXT.export}
      </Menu.Item>
      {canBuild && (
        <Menu.Item value="delete" color={{ _light: 'red.700', _dark: 'red.300' }}>
          <FiTrash2 aria-hidden="true" /> {AGENT_TEXT.delete}
        </Menu.Item>
      )}
    </>
  );
}
