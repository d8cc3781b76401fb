import { chakra, RadioGroup, Stack, Text, Wrap } from '@chakra-ui/react';
import { AGENT_AVATAR_STYLES, AGENT_COLORS } from '@cadre/contract';
import { AgentAvatar } from '@cadre/ui';
import type { ReactNode } from 'react';
import type { AgentColor } from '../api/agents-api';
import { AGENT_EMOJIS } from '../constants';

interface Look {
  icon: string | null;
  color: AgentColor | null;
}

/** The radio value of "no choice" (the initial, the brand colour): a radio's value is a string. */
const NONE = '';

interface Option {
  value: string;
  label: string;
  swatch: ReactNode;
}

/**
 * Exclusive choices shown as swatches: a radio group, so the keyboard reaches it with one Tab and
 * picks with the arrow keys (native radios under the swatches), the chosen one ringed.
 */
function SwatchGroup(props: {
  label: string;
  value: string | null;
  options: Option[];
  onChange: (value: string | null) => void;
}) {
  return (
    <RadioGroup.Root
      value={props.value ?? NONE}
      onValueChange={({ value }) => props.onChange(value === NONE || value === null ? null : value)}
    >
      <RadioGroup.Label srOnly>{props.label}</RadioGroup.Label>
      <Wrap gap="1">
        {props.options.map((option) => (
          <RadioGroup.Item
            key={option.value}
            value={option.value}
            title={option.label}
            p="1"
            rounded="full"
            borderWidth="2px"
            borderColor="transparent"
            cursor="pointer"
            _hover={{ bg: 'bg.muted' }}
            _checked={{ borderColor: 'fg' }}
            focusRing="outside"
          >
            <RadioGroup.ItemHiddenInput />
            <RadioGroup.ItemText srOnly>{option.label}</RadioGroup.ItemText>
            {option.swatch}
          </RadioGroup.Item>
        ))}
      </Wrap>
    </RadioGroup.Root>
  );
}

const colorSwatch = (bg: string) => <chakra.span display="block" w="6" h="6" rounded="full" bg={bg} />;

/** The agent's icon (an emoji, a generated avatar or its initial) and colour, previewed as chosen. */
export function AppearancePicker({
  name,
  icon,
  color,
  onChange,
}: Look & { name: string; onChange: (look: Partial<Look>) => void }) {
  const seed = name.trim() || 'Agent';
  const avatar = (choice: string | null) => <AgentAvatar agent={{ name: seed, icon: choice, color }} />;
  const icons: Option[] = [
    { value: NONE, label: 'Initial', swatch: avatar(null) },
    ...AGENT_EMOJIS.map((emoji) => ({ value: emoji, label: `Emoji ${emoji}`, swatch: avatar(emoji) })),
    ...AGENT_AVATAR_STYLES.map((style) => ({
      value: `avatar:${style}`,
      label: `Generated avatar: ${style}`,
      swatch: avatar(`avatar:${style}`),
    })),
  ];
  const colors: Option[] = [
    { value: NONE, label: 'Colour: default', swatch: colorSwatch('brand.solid') },
    ...AGENT_COLORS.map((palette) => ({
      value: palette,
      label: `Colour: ${palette}`,
      swatch: colorSwatch(`${palette}.500`),
    })),
  ];
  return (
    <Stack as="fieldset" gap="3">
      <Text as="legend" fontWeight="medium" fontSize="sm" mb="2">
        Icon and colour
      </Text>
      <SwatchGroup
        label="Icon"
        value={icon}
        options={icons}
        onChange={(value) => onChange({ icon: value })}
      />
      <SwatchGroup
        label="Colour"
        value={color}
        options={colors}
        onChange={(value) => onChange({ color: value as AgentColor | null })}
      />
    </Stack>
  );
}
