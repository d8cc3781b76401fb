import '../lib/zod-jitless';
import { mountWidget, toggleWidget, unmountWidget, type WidgetConfig } from './widget';

declare global {
  interface Window {
    mountChainlitWidget: (config: WidgetConfig) => void;
    unmountChainlitWidget: () => void;
    toggleChainlitCopilot: () => void;
  }
}

window.mountChainlitWidget = (config) => {
  if (!config || typeof config.chainlitServer !== 'string') {
    throw new TypeError('mountChainlitWidget needs {chainlitServer}');
  }
  mountWidget(config);
};
window.unmountChainlitWidget = unmountWidget;
window.toggleChainlitCopilot = toggleWidget;
