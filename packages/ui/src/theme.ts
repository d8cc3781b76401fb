import { createSystem, defaultBaseConfig, defineConfig, type SystemContext } from '@chakra-ui/react';
import {
  alertSlotRecipe,
  animationStyles,
  avatarSlotRecipe,
  badgeRecipe,
  breakpoints,
  buttonRecipe,
  cardSlotRecipe,
  checkboxSlotRecipe,
  checkmarkRecipe,
  codeRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dataListSlotRecipe,
  dialogSlotRecipe,
  drawerSlotRecipe,
  fieldSlotRecipe,
  fieldsetSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputAddonRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  listSlotRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  progressSlotRecipe,
  radioGroupSlotRecipe,
  radiomarkRecipe,
  segmentGroupSlotRecipe,
  semanticTokens,
  skeletonRecipe,
  spinnerRecipe,
  statSlotRecipe,
  tableSlotRecipe,
  tagSlotRecipe,
  textareaRecipe,
  textStyles,
  toastSlotRecipe,
  tokens,
  tooltipSlotRecipe,
} from '@chakra-ui/react/theme';

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

/**
 * Chakra's default theme with only the recipes of the components Cadre uses: the full set of about
 * 80 recipes is a sixth of the web app's first download (docs/benchmarks.md, "Web"). A component
 * whose recipe is missing renders unstyled, so apps/web/src/components/ui/theme-recipes.test.ts
 * checks every Chakra component imported by the apps against this list.
 */
const themeConfig = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens,
    semanticTokens,
    textStyles,
    layerStyles,
    animationStyles,
    recipes: {
      badge: badgeRecipe,
      button: buttonRecipe,
      checkmark: checkmarkRecipe,
      code: codeRecipe,
      heading: headingRecipe,
      icon: iconRecipe,
      input: inputRecipe,
      inputAddon: inputAddonRecipe,
      link: linkRecipe,
      radiomark: radiomarkRecipe,
      skeleton: skeletonRecipe,
      spinner: spinnerRecipe,
      textarea: textareaRecipe,
    },
    slotRecipes: {
      alert: alertSlotRecipe,
      avatar: avatarSlotRecipe,
      card: cardSlotRecipe,
      checkbox: checkboxSlotRecipe,
      dataList: dataListSlotRecipe,
      dialog: dialogSlotRecipe,
      drawer: drawerSlotRecipe,
      field: fieldSlotRecipe,
      fieldset: fieldsetSlotRecipe,
      list: listSlotRecipe,
      menu: menuSlotRecipe,
      nativeSelect: nativeSelectSlotRecipe,
      progress: progressSlotRecipe,
      radioGroup: radioGroupSlotRecipe,
      segmentGroup: segmentGroupSlotRecipe,
      stat: statSlotRecipe,
      table: tableSlotRecipe,
      tag: tagSlotRecipe,
      toast: toastSlotRecipe,
      tooltip: tooltipSlotRecipe,
    },
  },
});

/** The system for a page of our own (the web app, the chat frame). */
export const system: SystemContext = createSystem(
  defaultBaseConfig,
  themeConfig,
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
    defaultBaseConfig,
    themeConfig,
    defineConfig({
      cssVarsRoot: rootSelector,
      preflight: { scope: rootSelector },
      globalCss: {},
      theme: { semanticTokens: { colors: { brand: brandTokens, fg: fgTokens } } },
    }),
  );
}
