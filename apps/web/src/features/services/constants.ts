/** Every text, duration and limit of the services screens (spec sections 2, 4, 8, 9). */

export const SERVICE_TOAST_DURATION = 5000;
export const SERVICE_SEARCH_KEYS = ['name', 'description'] as const;
export const TOOL_SEARCH_KEYS = ['name', 'description'] as const;
export const ACTION_SEARCH_KEYS = ['display_name'] as const;
export const ACTIONS_LIST_MAX_HEIGHT = '400px';

export const SERVICE_TEXT = {
  searchServices: 'Search services...',
  searchTools: 'Search tools...',
  searchActions: 'Search actions...',
  register: 'Register Service',
  disconnect: 'Disconnect Service',
  viewTools: 'View Tools',
  noLogo: 'No Logo',
  unknownApp: 'Unknown App',
  apiKeyTitle: 'Enter API Key',
  submit: 'Submit',
  cancel: 'Cancel',
  activeServices: 'Active Services',
  activeServicesHint: 'Click on a service below to view and add tools.',
  added: 'Added',
  statusLine: (status: string, scheme: string) => `Status: ${status} | Auth: ${scheme}`,
  lastUsed: 'Last used',
  neverUsed: 'Never used',
  lastError: 'Last error',
  actionsFor: (service: string) => `Actions for ${service}`,
} as const;

export interface ToastText {
  title: string;
  description?: string;
}

export const SERVICE_TOASTS = {
  registerFailedApiKey: (service: string): ToastText => ({
    title: `Failed to register ${service} by API key.`,
  }),
  registerFailedOAuth: (service: string): ToastText => ({ title: `Failed to register ${service} via Auth.` }),
  registerFailedNoAuth: (service: string): ToastText => ({
    title: `Failed to register ${service} without authentication.`,
  }),
  disconnectFailed: (service: string): ToastText => ({ title: `Failed to disconnect ${service}.` }),
  notActive: (name: string): ToastText => ({
    title: 'Registration Error',
    description: `The service "${name}" didn't become active.`,
  }),
  apiKeyRequired: {
    title: 'API Key Required',
    description: 'Please enter an API Key to proceed.',
  } as ToastText,
  registered: (name: string): ToastText => ({
    title: 'Service Registered Successfully',
    description: `The service "${name}" is now active.`,
  }),
  disconnected: (name: string): ToastText => ({
    title: 'Service Disconnected',
    description: `The service "${name}" has been disconnected.`,
  }),
} as const;
