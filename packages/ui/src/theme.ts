import { createSystem, defaultConfig, defineConfig, type SystemContext } from '@chakra-ui/react';

/**
 * Cadre's look: Chakra's defaults with a teal brand colour. One definition for the web app, the chat
 * frame and the copilot widget, so they cannot drift apart. `solid` is teal.700 so white text on it
 * meets WCAG AA contrast.
 */
export const brandTokens = {
  solid: { value: '{colors.teal.700}' },
  contrast: { value: 'white' },
  fg: { value: { _light: '{colors.teal.700}', _dark: '{colors.teal.300}' } },
  muted: { value: { _light: '{colors.teal.100}', _dark: '{colors.teal.900}' } },
  subtle: { value: { _light: '{colors.teal.50}', _dark: '{colors.teal.950}' } },
  emphasized: { value: { _light: '{colors.teal.200}', _dark: '{colors.teal.800}' } },
  focusRing: { value: '{colors.teal.500}' },
  border: { value: { _light: '{colors.teal.500}', _dark: '{colors.teal.400}' } },
};

/** Error text (field messages, warnings) dark enough on white for WCAG AA: Chakra's red.500 is 3.8:1. */
const fgTokens = { error: { value: { _light: '{colors.red.700}', _dark: '{colors.red.300}' } } };

/** The system for a page of our own (the web app, the chat frame). */
export const system: SystemContext = createSystem(
  defaultConfig,
  defineConfig({
    globalCss: { 'html, body, #root': { height: '100%' } },
    theme: { semanticTokens: { colors: { brand: brandTokens, fg: fgTokens } } },
  }),
);

/**
 * A system whose CSS variables and reset apply only inside `rootSelector`: for UI rendered on
 * someone else's page (the copilot widget in its shadow root), which must leave the host alone.
 */
export function createScopedSystem(rootSelector: string): SystemContext {
  return createSystem(
    defaultConfig,
    defineConfig({
      cssVarsRoot: rootSelector,
      preflight: { scope: rootSelector },
      globalCss: {},
      theme: { semanticTokens: { colors: { brand: brandTokens, fg: fgTokens } } },
    }),
  );
}
