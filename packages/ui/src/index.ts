export { brandTokens, system, createScopedSystem } from './theme.ts';
export {
  COLOR_MODE_KEY,
  colorModePreference,
  setColorModePreference,
  useColorModePreference,
  useSystemColorMode,
  type ColorModePreference,
} from './color-mode.ts';
export { AgentAvatar, avatarStyleOf, type AgentLook } from './agent-avatar.tsx';
export { useInView } from './use-in-view.ts';
export { afterFirstPaint, usePainted } from './after-first-paint.ts';
