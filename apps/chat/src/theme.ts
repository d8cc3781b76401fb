import { createSystem, defaultConfig, defineConfig, type SystemContext } from '@chakra-ui/react';

/**
 * The chat frame's look. Features do not cross apps, so this re-declares the web app's brand tokens
 * (apps/web/src/theme.ts: Chakra's defaults with a teal brand colour); keep the two in step.
 */
const brandTokens = {
  solid: { value: '{colors.teal.600}' },
  contrast: { value: 'white' },
  fg: { value: { _light: '{colors.teal.700}', _dark: '{colors.teal.300}' } },
  muted: { value: { _light: '{colors.teal.100}', _dark: '{colors.teal.900}' } },
  subtle: { value: { _light: '{colors.teal.50}', _dark: '{colors.teal.950}' } },
  emphasized: { value: { _light: '{colors.teal.200}', _dark: '{colors.teal.800}' } },
  focusRing: { value: '{colors.teal.500}' },
  border: { value: { _light: '{colors.teal.500}', _dark: '{colors.teal.400}' } },
};

export const system: SystemContext = createSystem(
  defaultConfig,
  defineConfig({
    globalCss: { 'html, body, #root': { height: '100%' } },
    theme: { semanticTokens: { colors: { brand: brandTokens } } },
  }),
);

/**
 * The copilot widget renders inside a shadow root on someone else's page: its CSS variables live on
 * `:host`, and it leaves the host page's own elements alone (no global reset).
 */
export const copilotSystem: SystemContext = createSystem(
  defaultConfig,
  defineConfig({
    cssVarsRoot: '.cadre-copilot-root',
    preflight: { scope: '.cadre-copilot-root' },
    globalCss: {},
    theme: { semanticTokens: { colors: { brand: brandTokens } } },
  }),
);
