import type { AgentSnapshot } from './api/agents-api';

/** One field of an agent as it differs between two versions. */
export interface FieldChange {
  field: 'Name' | 'Description' | 'Guidelines' | 'Icon' | 'Colour' | 'Starters' | 'Model' | 'Temperature';
  before: string;
  after: string;
}

export interface VersionDiff {
  fields: FieldChange[];
  /** Tools by display name and service, as the user recognises them. */
  toolsAdded: string[];
  toolsRemoved: string[];
  /** Same tools, different order. */
  toolsReordered: boolean;
  /** Knowledge files by name (a file replaced by another of the same name counts as both). */
  filesAdded: string[];
  filesRemoved: string[];
}

const toolLabel = (tool: AgentSnapshot['tools'][number]) => `${tool.display_name} (${tool.app_name})`;

/** What changed from `before` to `after`, field by field; an empty diff when nothing did. */
export function diffSnapshots(before: AgentSnapshot, after: AgentSnapshot): VersionDiff {
  const fields: FieldChange[] = [];
  const compare = (field: FieldChange['field'], a: string | null, b: string | null) => {
    if ((a ?? '') !== (b ?? '')) fields.push({ field, before: a ?? '', after: b ?? '' });
  };
  compare('Name', before.name, after.name);
  compare('Description', before.description, after.description);
  compare('Guidelines', before.guidelines, after.guidelines);
  compare('Icon', before.icon, after.icon);
  compare('Colour', before.color, after.color);
  compare('Starters', before.starters.join('\n'), after.starters.join('\n'));
  // Blank is the default model and the provider's default temperature.
  compare('Model', before.model_id, after.model_id);
  compare('Temperature', before.temperature?.toString() ?? null, after.temperature?.toString() ?? null);
  const beforeIds = before.tools.map((t) => t.id);
  const afterIds = after.tools.map((t) => t.id);
  const toolsAdded = after.tools.filter((t) => !beforeIds.includes(t.id)).map(toolLabel);
  const toolsRemoved = before.tools.filter((t) => !afterIds.includes(t.id)).map(toolLabel);
  const kept = (ids: number[], other: number[]) => ids.filter((id) => other.includes(id));
  const toolsReordered = kept(beforeIds, afterIds).join() !== kept(afterIds, beforeIds).join();
  const beforeFiles = before.files.map((f) => f.id);
  const afterFiles = after.files.map((f) => f.id);
  const filesAdded = after.files.filter((f) => !beforeFiles.includes(f.id)).map((f) => f.name);
  const filesRemoved = before.files.filter((f) => !afterFiles.includes(f.id)).map((f) => f.name);
  return { fields, toolsAdded, toolsRemoved, toolsReordered, filesAdded, filesRemoved };
}

export const isEmptyDiff = (diff: VersionDiff) =>
  !diff.fields.length &&
  !diff.toolsAdded.length &&
  !diff.toolsRemoved.length &&
  !diff.toolsReordered &&
  !diff.filesAdded.length &&
  !diff.filesRemoved.length;
