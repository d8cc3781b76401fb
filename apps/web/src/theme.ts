import { createSystem, defaultConfig, defineConfig } from '@chakra-ui/react';

/** Cadre's look: Chakra's defaults with a teal brand colour, shared by the web app and chat frame. */
const config = defineConfig({
  globalCss: {
    'html, body, #root': { height: '100%' },
  },
  theme: {
    semanticTokens: {
      colors: {
        brand: {
          solid: { value: '{colors.teal.700}' },
          contrast: { value: 'white' },
          fg: { value: { _light: '{colors.teal.700}', _dark: '{colors.teal.300}' } },
          muted: { value: { _light: '{colors.teal.100}', _dark: '{colors.teal.900}' } },
          subtle: { value: { _light: '{colors.teal.50}', _dark: '{colors.teal.950}' } },
          emphasized: { value: { _light: '{colors.teal.200}', _dark: '{colors.teal.800}' } },
          focusRing: { value: '{colors.teal.500}' },
          border: { value: { _light: '{colors.teal.500}', _dark: '{colors.teal.400}' } },
        },
      },
    },
  },
});

export const system = createSystem(defaultConfig, config);
