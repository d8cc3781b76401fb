export { brandTokens, system, createScopedSystem } from './theme.ts';
export { useSystemColorMode } from './color-mode.ts';
