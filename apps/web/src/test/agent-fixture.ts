import type { Agent } from '../features/agents/api/agents-api';

/**
 * An agent as the API answers it, with every optional part at its default (no icon, colour,
 * starters, origins or tools; the default model; unattended writes off, API writes asking for approval): a test states only what
 * it is about.
 */
export const agentFixture = (fields: Pick<Agent, 'id' | 'name' | 'description'> & Partial<Agent>): Agent => ({
  guidelines: null,
  icon: null,
  color: null,
  starters: [],
  embed_origins: [],
  model_id: null,
  temperature: null,
  model_available: true,
  allow_unattended_writes: false,
  api_writes: 'approve',
  tools: [],
  ...fields,
});
