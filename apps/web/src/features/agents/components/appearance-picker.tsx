import { Center, chakra, Stack, Text, Wrap } from '@chakra-ui/react';
import { AGENT_AVATAR_STYLES, AGENT_COLORS } from '@cadre/contract';
import { AgentAvatar } from '@cadre/ui';
import type { ReactNode } from 'react';
import type { AgentColor } from '../api/agents-api';
import { AGENT_EMOJIS } from '../constants';

interface Look {
  icon: string | null;
  color: AgentColor | null;
}

/** A toggle in a group of exclusive choices: pressed is the one chosen. */
function Choice(props: { pressed: boolean; label: string; onPress: () => void; children: ReactNode }) {
  return (
    <Center
      p="1"
      rounded="full"
      borderWidth="2px"
      borderColor={props.pressed ? 'fg' : 'transparent'}
      focusRing="outside"
      cursor="pointer"
      _hover={{ bg: 'bg.muted' }}
      asChild
    >
      <button
        type="button"
        aria-pressed={props.pressed}
        aria-label={props.label}
        title={props.label}
        onClick={props.onPress}
      >
        {props.children}
      </button>
    </Center>
  );
}

/** The agent's icon (an emoji, a generated avatar or its initial) and colour, previewed as chosen. */
export function AppearancePicker({
  name,
  icon,
  color,
  onChange,
}: Look & { name: string; onChange: (look: Partial<Look>) => void }) {
  const seed = name.trim() || 'Agent';
  return (
    <Stack as="fieldset" gap="3">
      <Text as="legend" fontWeight="medium" fontSize="sm" mb="2">
        Icon and colour
      </Text>
      <Wrap gap="1" role="group" aria-label="Icon">
        <Choice pressed={icon === null} label="Initial" onPress={() => onChange({ icon: null })}>
          <AgentAvatar agent={{ name: seed, color }} />
        </Choice>
        {AGENT_EMOJIS.map((emoji) => (
          <Choice
            key={emoji}
            pressed={icon === emoji}
            label={`Emoji ${emoji}`}
            onPress={() => onChange({ icon: emoji })}
          >
            <AgentAvatar agent={{ name: seed, icon: emoji, color }} />
          </Choice>
        ))}
        {AGENT_AVATAR_STYLES.map((style) => (
          <Choice
            key={style}
            pressed={icon === `avatar:${style}`}
            label={`Generated avatar: ${style}`}
            onPress={() => onChange({ icon: `avatar:${style}` })}
          >
            <AgentAvatar agent={{ name: seed, icon: `avatar:${style}`, color }} />
          </Choice>
        ))}
      </Wrap>
      <Wrap gap="1" role="group" aria-label="Colour">
        <Choice pressed={color === null} label="Colour: default" onPress={() => onChange({ color: null })}>
          <chakra.span display="block" w="6" h="6" rounded="full" bg="brand.solid" />
        </Choice>
        {AGENT_COLORS.map((palette) => (
          <Choice
            key={palette}
            pressed={color === palette}
            label={`Colour: ${palette}`}
            onPress={() => onChange({ color: palette })}
          >
            <chakra.span display="block" w="6" h="6" rounded="full" bg={`${palette}.500`} />
          </Choice>
        ))}
      </Wrap>
    </Stack>
  );
}
