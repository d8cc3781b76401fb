import { z } from 'zod';
import {
  AGENT_COLORS,
  AGENT_LIMITS,
  agentFieldsSchema,
  agentSchema,
  colorField,
  guidelinesField,
  iconField,
  modelIdField,
  pathIdSchema,
  requiredText,
  startersField,
  temperatureField,
} from './agents.ts';

/** Agent versions (every save of an agent) and the agent export document. */

/** A tool as a version remembers it: its id then, and the stable keys that name it anywhere. */
export const agentSnapshotToolSchema = z.object({
  id: z.number(),
  /** The provider's slug for the tool. */
  name: z.string(),
  display_name: z.string(),
  /** The service's name. */
  app_name: z.string(),
  provider: z.string(),
  /** The provider's own key for the service (toolkit slug, MCP server name...). */
  service_key: z.string(),
});
export type AgentSnapshotTool = z.infer<typeof agentSnapshotToolSchema>;

/** A knowledge file as a version lists it (its bytes are kept while a version lists it). */
export const agentSnapshotFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  media_type: z.string(),
  size_bytes: z.number(),
  sha256: z.string(),
});
export type AgentSnapshotFile = z.infer<typeof agentSnapshotFileSchema>;

/** What an agent was at one save. */
export const agentSnapshotSchema = agentFieldsSchema.extend({
  /** Absent in versions saved before icons and colours were recorded. */
  icon: z.string().nullable().default(null),
  color: z.enum(AGENT_COLORS).nullable().default(null),
  /** Absent in versions saved before starters existed. */
  starters: z.array(z.string()).default([]),
  /** Absent in versions saved before agents chose a model. */
  model_id: z.string().nullable().default(null),
  temperature: z.number().nullable().default(null),
  tools: z.array(agentSnapshotToolSchema),
  /** Its knowledge files; absent in versions saved before agents had files. */
  files: z.array(agentSnapshotFileSchema).default([]),
});
export type AgentSnapshot = z.infer<typeof agentSnapshotSchema>;

export const AGENT_VERSION_REASONS = [
  'baseline',
  'create',
  'duplicate',
  'update',
  'restore',
  'import',
  'files',
  // Made from an agent template (GET /api/v1/agent-templates/).
  'template',
] as const;

export const agentVersionSchema = z.object({
  /** Counts up from 1 per agent. */
  number: z.number(),
  /** What made the version; `baseline` is the state found before the first recorded save. */
  reason: z.enum(AGENT_VERSION_REASONS),
  /** For a restore: the version restored. */
  restored_from: z.number().nullable(),
  /** Who saved it: their user id; null for a baseline. */
  saved_by: z.number().nullable(),
  /** Their name or email when they saved it, where the sign-in gave one. */
  author: z.string().nullable(),
  created_at: z.string(),
  snapshot: agentSnapshotSchema,
});
export type AgentVersion = z.infer<typeof agentVersionSchema>;
export const agentVersionListSchema = z.array(agentVersionSchema);

export const agentVersionParamsSchema = z.strictObject({
  agent_id: pathIdSchema,
  number: pathIdSchema,
});

/** A restore's answer: the agent as it now is, and what of the version could not come back. */
export const agentRestoreResultSchema = agentSchema.extend({
  /** Erased for good (or deleted before deleted files were kept): the agent is without them. */
  files_not_restored: z.array(agentSnapshotFileSchema),
  /** Tools the person can no longer attach (their service was removed): the agent is without them. */
  tools_not_restored: z.array(agentSnapshotToolSchema),
  /** The version's model when the operator no longer offers it (the agent uses the default); else null. */
  model_not_restored: z.string().nullable(),
});
export type AgentRestoreResult = z.infer<typeof agentRestoreResultSchema>;

/** The export document's format: a newer `format_version` than this is refused on import. */
export const AGENT_EXPORT_FORMAT = 'cadre.agent';
export const AGENT_EXPORT_VERSION = 1;
/** The largest export document an import accepts. */
export const AGENT_IMPORT_LIMIT_BYTES = 256 * 1024;

const keyText = (max: number) =>
  z
    .string()
    .min(1, 'must not be blank')
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !value.includes('\u0000'), 'must not contain NUL characters');

/** A tool named by what stays the same on every server: provider, service key and tool slug. */
export const agentExportToolSchema = z.object({
  provider: keyText(50),
  service_key: keyText(200),
  tool_name: keyText(200),
  /** For people reading the document; not used to find the tool. */
  service_name: z.string().max(200).optional(),
  display_name: z.string().max(200).optional(),
});
export type AgentExportTool = z.infer<typeof agentExportToolSchema>;

export const agentExportQuerySchema = z.strictObject({
  /** `files`: the zip export, with the agent's knowledge files (also chosen by `Accept: application/zip`). */
  include: z.enum(['files'], 'must be files').optional(),
});

/** The export with files (`?include=files`) is a zip: this entry holds the document. */
export const AGENT_ARCHIVE_DOCUMENT = 'agent.json';
/** …and these entries the files' bytes: `files/1`, `files/2`… (made by the server, never a file's name). */
export const AGENT_ARCHIVE_FILE_ENTRY = /^files\/[1-9][0-9]{0,4}$/;

/** A knowledge file in the zip export: where its bytes are in the archive, and what they are. */
export const agentExportFileSchema = z.object({
  entry: z
    .string()
    .regex(AGENT_ARCHIVE_FILE_ENTRY, 'must be files/<n>: an entry of the archive, never a path'),
  /** The name it was uploaded with: display text only, made safe again on import. */
  name: z.string().min(1, 'must not be blank').max(1_000, 'must be at most 1000 characters'),
  media_type: z.string().max(200).optional(),
  size_bytes: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be the SHA-256 of the bytes, 64 hex digits'),
});
export type AgentExportFile = z.infer<typeof agentExportFileSchema>;

/** `GET /api/v1/agents/{agent_id}/export`, and the body of `POST /api/v1/agents/import`. */
export const agentExportSchema = z.object({
  format: z.literal(AGENT_EXPORT_FORMAT, `must be "${AGENT_EXPORT_FORMAT}"`),
  format_version: z
    .number({ error: 'must be a positive integer' })
    .int('must be a positive integer')
    .min(1, 'must be a positive integer')
    .max(
      AGENT_EXPORT_VERSION,
      `is newer than this server reads (${AGENT_EXPORT_VERSION}); update Cadre to import this document`,
    ),
  exported_at: z.string().max(100).optional(),
  agent: z.object({
    name: requiredText(AGENT_LIMITS.name),
    description: requiredText(AGENT_LIMITS.description),
    guidelines: guidelinesField,
    icon: iconField.transform((value) => value ?? null),
    color: colorField.transform((value) => value ?? null),
    starters: startersField.default([]),
    /** Kept when this server offers the model; otherwise the default (the result says so). */
    model_id: modelIdField.transform((value) => value ?? null),
    temperature: temperatureField.transform((value) => value ?? null),
    tools: z
      .array(agentExportToolSchema)
      .max(AGENT_LIMITS.toolIds, `must hold at most ${AGENT_LIMITS.toolIds} tools`)
      .default([]),
  }),
  /** In the zip export only: the agent's knowledge files. */
  files: z
    .array(agentExportFileSchema)
    .max(10_000, 'must list at most 10000 files')
    .refine((files) => new Set(files.map((f) => f.entry)).size === files.length, 'must name each entry once')
    .default([]),
});
export type AgentExport = z.input<typeof agentExportSchema>;

/** The document as the export writes it (the import's schema also reads older and looser input). */
export const agentExportDocumentSchema = z.object({
  format: z.literal(AGENT_EXPORT_FORMAT),
  format_version: z.number(),
  exported_at: z.string(),
  agent: agentFieldsSchema.extend({ tools: z.array(agentExportToolSchema) }),
  /** The zip export's `agent.json` lists the files; the JSON export has none. */
  files: z.array(agentExportFileSchema).optional(),
});
export type AgentExportDocument = z.infer<typeof agentExportDocumentSchema>;

/** An imported tool whose service the importer has not connected yet. */
export const importedToolSchema = agentExportToolSchema.extend({ service_id: z.number() });

/** What an import answers: the new agent, and what of the document's tools still needs the user. */
export const agentImportResultSchema = z.object({
  agent: agentSchema,
  /** Attached, but their services need connecting before the agent can use them. */
  tools_to_connect: z.array(importedToolSchema),
  /** Not offered by this server (or not to this user): left out of the agent. */
  tools_not_found: z.array(agentExportToolSchema),
  /** The document's model when this server does not offer it: the agent uses the default model. */
  model_not_offered: z.string().nullable(),
  /** The knowledge files imported with it (from the zip export). */
  files: z.array(agentSnapshotFileSchema),
});
export type AgentImportResult = z.infer<typeof agentImportResultSchema>;
