import { createScopedSystem } from '@cadre/ui';

export { system } from '@cadre/ui';

/**
 * The copilot widget renders inside a shadow root on someone else's page: its CSS variables live on
 * its own root element, and it leaves the host page's own elements alone (no global reset).
 */
export const copilotSystem = createScopedSystem('.cadre-copilot-root');
