/** Every text, duration and limit of the agent screens (spec sections 2, 5, 8, 9). */

export const AGENT_TOAST_DURATION = 3000;
/** A restore that left something out says what, which takes longer to read than a title. */
export const RESTORE_WARNING_DURATION = 10_000;
export const ACTION_ADDED_DURATION = 2000;
export const AGENT_SEARCH_KEYS = ['name', 'description'] as const;

export const AGENT_TEXT = {
  search: 'Search agents',
  loading: 'Loading agents...',
  loadError: 'Error loading agents.',
  empty: 'No agents found.',
  emptyForMember: 'No agents yet. Agents shared with you will be listed here.',
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
  starters: 'Starters',
  startersHelp:
    'Up to four prompts shown in an empty chat. Left blank, the chat suggests examples for the tools.',
  starterLabel: (n: number) => `Starter ${n}`,
  starterPlaceholder: (n: number) => (n === 1 ? 'e.g. What is on my calendar today?' : `Starter ${n}`),
  copyName: (name: string) => `${name} (Copy)`,
  nameRequired: 'Give the agent a name.',
  descriptionRequired: 'Describe what the agent does.',
  needsReconnecting: 'Needs reconnecting',
  reconnect: (service: string) => `Reconnect ${service} on the Services page`,
} as const;

/** The template gallery and the ready assistant's offer. */
export const TEMPLATE_TEXT = {
  uses: (services: string[]) => `Uses ${services.join(', ')}; no account needed.`,
  start: (name: string) => `Try ${name}`,
  readyTitle: 'Start chatting right away',
  readyText: (services: string[]) =>
    `Your assistant is ready: it works with ${services.join(', ')}, with nothing to set up.`,
  readyStart: 'Start chatting',
  galleryTitle: 'Start from a template',
} as const;

/** The emojis offered as an agent's icon, besides the generated avatars. */
export const AGENT_EMOJIS = ['🤖', '📬', '📅', '🔎', '🧮', '📝', '🌦️', '📰', '🛒', '💡', '🎧', '🧭'] as const;

export interface AgentToast {
  title: string;
  description?: string;
  type: 'success' | 'error' | 'info' | 'warning';
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
  /**
   * What a restore could not bring back is named, on a warning that stays long enough to read:
   * the agent now differs from the version, and the history's diff would not say why.
   */
  restored: (n: number, notRestored: string[] = []): AgentToast =>
    notRestored.length
      ? {
          title: `Version ${n} restored`,
          description: `Not restored: ${notRestored.join('; ')}.`,
          type: 'warning',
          duration: RESTORE_WARNING_DURATION,
        }
      : agentToast('success', `Version ${n} restored`),
  restoreFailed: agentToast('error', 'Restore failed', 'The version could not be restored.'),
  exportFailed: agentToast('error', 'Export failed', 'The agent could not be exported.'),
  importFailed: (reason: string) => agentToast('error', 'Import failed', reason),
  actionAdded: (tool: string): AgentToast => ({
    title: 'Action added',
    description: `${tool} added to agent`,
    type: 'info',
    duration: ACTION_ADDED_DURATION,
  }),
} as const;

const REASONS = {
  baseline: 'Before history',
  create: 'Created',
  duplicate: 'Duplicated',
  update: 'Saved',
  restore: 'Restored',
  import: 'Imported',
  files: 'Files changed',
  template: 'From a template',
} as const;

/** The editor's version history (issue 20, item 3). */
export const HISTORY_TEXT = {
  heading: 'History',
  loading: 'Loading history',
  loadError: 'The history could not be loaded.',
  empty: 'No saved versions yet.',
  listLabel: 'Saved versions',
  version: (n: number) => `Version ${n}`,
  reason: (v: { reason: keyof typeof REASONS; restored_from: number | null }) =>
    v.reason === 'restore' && v.restored_from !== null
      ? `Restored from version ${v.restored_from}`
      : REASONS[v.reason],
  /** Only the owner saves an agent, so a version without a name on it was saved by the reader. */
  savedBy: (v: { saved_by: number | null; author: string | null }) =>
    v.author ? `${v.author}, ` : v.saved_by !== null ? 'You, ' : '',
  current: 'Current',
  restore: 'Restore',
  restoreLabel: (n: number) => `Restore version ${n}`,
  /** The parts of a version a restore left out, each saying why (see AGENT_TOASTS.restored). */
  notRestored: (result: {
    tools_not_restored: { display_name: string; app_name: string }[];
    model_not_restored: string | null;
    files_not_restored: { name: string }[];
  }) => [
    ...result.tools_not_restored.map((t) => `${t.display_name} (${t.app_name}), whose service is gone`),
    ...(result.model_not_restored === null
      ? []
      : [`the model ${result.model_not_restored}, no longer offered (the default answers)`]),
    ...result.files_not_restored.map((f) => `${f.name}, erased for good`),
  ],
  confirmTitle: (n: number) => `Restore version ${n}?`,
  confirmMessage:
    'The agent goes back to this version and is saved as a new version. Unsaved changes in the form are lost.',
  compareLabel: 'Compare versions',
  from: 'Compare',
  to: 'with',
  same: 'These versions are the same.',
  diffLabel: 'Differences',
  field: 'Field',
  blank: '(empty)',
  toolsAdded: 'Tools added',
  toolsRemoved: 'Tools removed',
  toolsReordered: 'Tools reordered',
  filesAdded: 'Files added',
  filesRemoved: 'Files removed',
} as const;

/** Per write/send tool: ask before each call or run without asking (issue 16, item 3). */
export const PERMISSION_TEXT = {
  heading: 'Approvals',
  help: 'Tools that change data or send something ask you in the chat before each call. Let a tool run without asking here, or with "Always allow for this agent" on its approval card.',
  loading: 'Loading approvals',
  loadError: 'The approval settings could not be loaded.',
  none: 'This agent has no tools that change data or send something.',
  ask: 'Ask every time',
  allow: 'Allow without asking',
  label: (tool: string) => `Approval for ${tool}`,
  effect: { write: 'Changes data', send: 'Sends' },
  allowedFrom: (source: 'chat' | 'editor' | null, at: string) =>
    `Allowed ${source === 'chat' ? 'from the chat' : 'here'} on ${new Date(at).toLocaleString()}`,
  saved: (tool: string, mode: 'ask' | 'allow') =>
    agentToast('success', mode === 'allow' ? `${tool} runs without asking` : `${tool} asks every time`),
  saveFailed: agentToast('error', 'Not saved', 'The approval setting could not be changed.'),
} as const;

/** The editor's Triggers section and the unattended-writes setting (issue 18, item 5). */
export const TRIGGER_TEXT = {
  unattendedWritesHelp:
    'Lets a trigger’s run use write and send tools without anyone approving them. Off, those tools are refused in trigger runs.',
  apiWritesHelp:
    'When the agent is asked through the OpenAI-compatible API or its MCP server, a write or send tool either waits for your approval here (the answer ends with a link to approve it) or is refused. It never runs unapproved.',
  heading: 'Triggers',
  help: 'A program starts a run of this agent by posting a JSON event to its trigger URL. Each run has its own thread, listed below.',
  urlLabel: 'Trigger URL',
  urlHelp: 'Replace new-order with any name for the event (letters, digits, . _ : -).',
  withKey: 'With an API key',
  withKeyHelp: 'A personal API key with the chat scope (user menu → API keys), sent as a bearer token.',
  signed: 'Signed by a host (Standard Webhooks)',
  signedHelp:
    'A host that should not hold your API key signs each call with this agent’s secret instead. A resend with the same webhook-id runs once; calls older than 5 minutes are refused.',
  secretOff: 'Signed calls are off: no secret yet.',
  secretOn: (at: string) => `Signed calls are on: secret made ${new Date(at).toLocaleString()}.`,
  secretLoadError: 'Whether signed calls are on could not be loaded.',
  createSecret: 'Create secret',
  rotateSecret: 'Rotate secret',
  deleteSecret: 'Turn off signed calls',
  shownOnce: 'Copy the secret now: it is shown only this once.',
  copy: 'Copy',
  copied: 'Copied',
  copyLabel: (what: string) => `Copy ${what}`,
  rotateTitle: 'Rotate the trigger secret?',
  rotateMessage: 'Hosts signing with the current secret are refused from now on, until they use the new one.',
  deleteTitle: 'Turn off signed calls?',
  deleteMessage:
    'The secret is deleted; hosts signing with it are refused. Calls with an API key still work.',
  secretFailed: agentToast('error', 'Not changed', 'The trigger secret could not be changed.'),
  runs: 'Last runs',
  refresh: 'Refresh',
  loading: 'Loading trigger runs',
  loadError: 'The trigger runs could not be loaded.',
  empty: 'No trigger calls yet.',
  trigger: 'Trigger',
  received: 'Received',
  status: 'Status',
  thread: 'Thread',
  openThread: (id: number) => `Open the thread of run ${id}`,
  noThread: 'Not started',
  statuses: { pending: 'Queued', running: 'Running', done: 'Done', failed: 'Failed' },
} as const;

/** Export and import (issue 20, item 4). */
export const EXCHANGE_TEXT = {
  export: 'Export',
  exportLabel: (name: string) => `Export ${name}`,
  import: 'Import agent',
  // The .json wording first: e2e/tests/agent-versions.spec.ts finds the picker by it.
  chooseFile: 'Choose an exported agent file (.json) or the .zip with its files',
  notJson: 'The file is not an exported agent (not JSON).',
  resultTitle: (name: string) => `Imported ${name}`,
  allSet: 'Every tool was found and its service is connected.',
  filesCame: (n: number) => `${n} knowledge file${n === 1 ? '' : 's'} came with it, indexed for search.`,
  toConnect: 'Connect these services on the Services page so the agent can use their tools:',
  notFound: 'These tools are not offered here and were left out:',
  modelNotOffered: (id: string) =>
    `The model '${id}' is not offered here: the agent answers with the default model. Choose another in the editor.`,
  goToServices: 'Go to Services',
  openAgent: 'Open agent',
  close: 'Close',
} as const;

/** The agent editor's model and temperature fields. */
export const MODEL_TEXT = {
  model: 'Model',
  loading: 'Loading models',
  loadError: 'The models could not be loaded.',
  retry: 'Retry',
  defaultOption: (label?: string) => (label ? `Default (${label})` : 'Default'),
  markedDefault: (label: string) => `${label} (default)`,
  staleOption: (id: string) => `${id} (no longer offered)`,
  staleWarning: (id: string, fallback?: string) =>
    `This agent's model '${id}' is no longer offered; it answers with the default${fallback ? ` (${fallback})` : ''}. Choose a model and save.`,
  context: (tokens: number) => `${tokens.toLocaleString('en')} tokens of context`,
  price: (input: number, output: number) => `${input} in / ${output} out per million tokens`,
  temperature: 'Temperature (0–2)',
  temperaturePlaceholder: 'Default',
  temperatureHelp: 'From 0 (focused) to 2 (varied); blank uses the model’s default',
} as const;

/** The editor's Knowledge files section (issue 20, item 2). */
export const FILES_TEXT = {
  heading: 'Knowledge files',
  help: 'Documents the agent searches to answer, and cites: PDF, DOCX, Markdown, plain text, HTML or CSV. The agent gets a "Search knowledge" tool while it has files.',
  add: 'Add files',
  inputLabel: 'Files to add',
  uploading: (name: string) => `Adding ${name}…`,
  loading: 'Loading files',
  loadError: 'The files could not be loaded.',
  none: 'No files yet.',
  passages: (n: number) => `${n} passage${n === 1 ? '' : 's'}`,
  pages: (n: number) => `${n} page${n === 1 ? '' : 's'}`,
  remove: (name: string) => `Delete ${name}`,
  confirmTitle: 'Delete this file?',
  confirmMessage: (name: string) => `The agent will no longer find or cite "${name}".`,
  confirm: 'Delete',
  added: (name: string) => agentToast('success', `${name} added`),
  addFailed: (name: string, why: string) => agentToast('error', `${name} was not added`, why),
  deleted: (name: string) => agentToast('success', `${name} deleted`),
  deleteFailed: agentToast('error', 'Not deleted', 'The file could not be deleted.'),
} as const;
