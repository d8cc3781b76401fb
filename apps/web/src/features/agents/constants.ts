/** Every text, duration and limit of the agent screens (spec sections 2, 5, 8, 9). */

export const AGENT_TOAST_DURATION = 3000;
export const ACTION_ADDED_DURATION = 2000;
export const AGENT_SEARCH_KEYS = ['name', 'description'] as const;

export const AGENT_TEXT = {
  search: 'Search agents',
  loading: 'Loading agents...',
  loadError: 'Error loading agents.',
  empty: 'No agents found.',
  createFirst: 'Create an agent!',
  createNew: 'Create New Agent',
  start: 'Start',
  toolsButton: (n: number) => `${n} Tools`,
  edit: 'Edit',
  duplicate: 'Duplicate',
  delete: 'Delete',
  save: 'Save',
  cancel: 'Cancel',
  guidelinesTooltip:
    "Optionally provide guidelines for influencing the agent's behavior. Explain as precisely as possible.",
  copyName: (name: string) => `${name} (Copy)`,
  nameRequired: 'Give the agent a name.',
  descriptionRequired: 'Describe what the agent does.',
  needsReconnecting: 'Needs reconnecting',
  reconnect: (service: string) => `Reconnect ${service} on the Services page`,
} as const;

/** The emojis offered as an agent's icon, besides the generated avatars. */
export const AGENT_EMOJIS = ['🤖', '📬', '📅', '🔎', '🧮', '📝', '🌦️', '📰', '🛒', '💡', '🎧', '🧭'] as const;

export interface AgentToast {
  title: string;
  description?: string;
  type: 'success' | 'error' | 'info';
  duration: number;
}

const agentToast = (type: AgentToast['type'], title: string, description?: string): AgentToast => ({
  title,
  ...(description === undefined ? {} : { description }),
  type,
  duration: AGENT_TOAST_DURATION,
});

export const AGENT_TOASTS = {
  created: agentToast('success', 'Agent created successfully.'),
  createFailed: agentToast('error', 'Failed to create agent.'),
  deleted: agentToast('success', 'Agent deleted successfully.'),
  deleteFailed: agentToast('error', 'Failed to delete agent.'),
  saved: (mode: 'Create' | 'Update') =>
    agentToast('success', mode === 'Create' ? 'Agent Created' : 'Agent Updated'),
  saveFailed: (mode: 'Create' | 'Update') =>
    agentToast('error', `${mode} Failed`, `Failed to ${mode} agent.`),
  required: agentToast('error', 'Name/Description Required'),
  actionAdded: (tool: string): AgentToast => ({
    title: 'Action added',
    description: `${tool} added to agent`,
    type: 'info',
    duration: ACTION_ADDED_DURATION,
  }),
} as const;
