import { Box, chakra, useChakraContext } from '@chakra-ui/react';
import Avatar from 'boring-avatars';

/** The look an agent has (see the agents contract): an icon and a palette name, either may be unset. */
export interface AgentLook {
  name: string;
  icon?: string | null;
  color?: string | null;
}

const AVATAR_PREFIX = 'avatar:';

type AvatarStyle = 'marble' | 'beam' | 'pixel' | 'sunset' | 'ring' | 'bauhaus';

/** The generated avatar style an icon names, or undefined for an emoji or no icon. */
export const avatarStyleOf = (icon: string | null | undefined): AvatarStyle | undefined =>
  icon?.startsWith(AVATAR_PREFIX) ? (icon.slice(AVATAR_PREFIX.length) as AvatarStyle) : undefined;

const SIZES = { sm: 6, md: 8, lg: 10, xl: 14 } as const;

/**
 * An agent's icon in its colour: a generated avatar (seeded by the agent's name, in shades of its
 * colour), an emoji on a tint of its colour, or the name's first letter. Decorative: the agent's
 * name is always written beside it.
 */
export function AgentAvatar({ agent, size = 'md' }: { agent: AgentLook; size?: keyof typeof SIZES }) {
  const system = useChakraContext();
  const palette = agent.color ?? 'teal';
  const style = avatarStyleOf(agent.icon);
  const box = SIZES[size];
  if (style) {
    const shades = ['200', '400', '500', '700', '900'].map((shade) =>
      String(system.token(`colors.${palette}.${shade}`, '#319795')),
    );
    return (
      <Box flexShrink={0} w={box} h={box} aria-hidden="true" data-testid="agent-avatar" lineHeight="0">
        <Avatar name={agent.name} variant={style} colors={shades} size="100%" />
      </Box>
    );
  }
  const emoji = agent.icon && !style ? agent.icon : undefined;
  return (
    <chakra.span
      aria-hidden="true"
      data-testid="agent-avatar"
      display="inline-flex"
      alignItems="center"
      justifyContent="center"
      flexShrink={0}
      w={box}
      h={box}
      rounded="full"
      colorPalette={agent.color ?? 'brand'}
      bg="colorPalette.muted"
      color="colorPalette.fg"
      fontWeight="semibold"
      fontSize={
        emoji
          ? { sm: 'sm', md: 'lg', lg: 'xl', xl: '3xl' }[size]
          : { sm: 'xs', md: 'sm', lg: 'md', xl: 'xl' }[size]
      }
      lineHeight="1"
      userSelect="none"
    >
      {emoji ?? (agent.name.trim()[0] ?? '?').toUpperCase()}
    </chakra.span>
  );
}
