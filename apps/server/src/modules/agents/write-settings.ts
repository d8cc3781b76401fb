import type { ApiWrites } from '@cadre/contract';

/**
 * What writes the agent may make in runs nobody in Cadre's chat started: "Allow write actions in
 * unattended runs" for a trigger's runs, "Write actions asked through the API or MCP" for callers
 * from code. Permissions, not content: versions and export documents never carry them.
 */
export interface WriteSettings {
  allowUnattendedWrites: boolean;
  apiWrites: ApiWrites;
}

/** A new agent's write settings: triggers refuse writes, API and MCP callers ask for approval. */
export const DEFAULT_WRITE_SETTINGS: WriteSettings = { allowUnattendedWrites: false, apiWrites: 'approve' };

/** The write settings as the API names them. */
export type WriteSettingInput = { allow_unattended_writes?: boolean; api_writes?: ApiWrites };

/** The write settings an input names (absent ones stay as they are). */
export const writeSettingsOf = (input: WriteSettingInput): Partial<WriteSettings> => ({
  ...(input.allow_unattended_writes === undefined
    ? {}
    : { allowUnattendedWrites: input.allow_unattended_writes }),
  ...(input.api_writes === undefined ? {} : { apiWrites: input.api_writes }),
});

/** The settings given, as the agents table's columns. */
export const writeSettingColumns = ({ allowUnattendedWrites, apiWrites }: Partial<WriteSettings>) => ({
  ...(allowUnattendedWrites === undefined ? {} : { allow_unattended_writes: allowUnattendedWrites ? 1 : 0 }),
  ...(apiWrites === undefined ? {} : { api_writes: apiWrites }),
});

/** The settings from the agents table's columns. */
export const writeSettingsFromColumns = (row: {
  allow_unattended_writes: number;
  api_writes: string;
}): WriteSettings => ({
  allowUnattendedWrites: row.allow_unattended_writes === 1,
  // Anything but the stored 'refuse' asks for approval: never a write without one.
  apiWrites: row.api_writes === 'refuse' ? 'refuse' : 'approve',
});
