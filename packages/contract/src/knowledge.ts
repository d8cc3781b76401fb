import { z } from 'zod';
import { pathIdSchema } from './agents.ts';

/**
 * Knowledge files: documents attached to an agent, whose passages its "Search knowledge" tool
 * finds and cites (`/api/v1/agents/{agent_id}/files`).
 */

/** The multipart field an upload sends its file in. */
export const KNOWLEDGE_FILE_FIELD = 'file';

/** What the file picker offers; the server sniffs the content whatever the name says. */
export const KNOWLEDGE_FILE_ACCEPT = '.pdf,.docx,.md,.markdown,.txt,.html,.htm,.csv';

export const knowledgeFileSchema = z.object({
  /** A server UUID: the only key a file is stored and read back by. */
  id: z.string(),
  /** The name it was uploaded with, for display only (never a path). */
  name: z.string(),
  /** Sniffed from the bytes. */
  media_type: z.string(),
  size_bytes: z.number(),
  sha256: z.string(),
  /** PDF pages; null for other kinds. */
  pages: z.number().nullable(),
  /** How many passages its text was split into. */
  passage_count: z.number(),
  /** The model that embedded its passages; null when searched by full text only. */
  embedding_model: z.string().nullable(),
  created_at: z.string(),
});
export type KnowledgeFile = z.infer<typeof knowledgeFileSchema>;
export const knowledgeFileListSchema = z.array(knowledgeFileSchema);

export const knowledgeUploadQuerySchema = z.strictObject({
  /**
   * The editor's id for one pick of several files: their uploads make one version of the agent
   * (each upload of the batch joins the batch's version while it is the agent's newest).
   */
  batch: z.uuid('must be a batch id (a UUID)').optional(),
});

export const knowledgeDeleteQuerySchema = z.strictObject({
  /**
   * `true`: erase the file for good (its bytes and passages; no version can bring it back).
   * Otherwise it stays in the agent's history, and restoring a version that lists it brings it back.
   */
  erase: z.enum(['true', 'false'], 'must be true or false').optional(),
});

export const knowledgeFileParamsSchema = z.strictObject({
  agent_id: pathIdSchema,
  file_id: z.uuid('must be a file id (a UUID)'),
});

/** The name of the tool an agent with files gets, and what it answers. */
export const SEARCH_KNOWLEDGE_TOOL = 'search_knowledge';
export const SEARCH_KNOWLEDGE_TITLE = 'Search knowledge';

/** One passage the tool found: the file and passage it cites, and the passage's text. */
export const knowledgeCitationSchema = z.object({
  /** `[n]` in the answer refers to this. */
  n: z.number(),
  file_id: z.string(),
  file_name: z.string(),
  passage: z.number(),
  page: z.number().nullable(),
  text: z.string(),
});
export type KnowledgeCitation = z.infer<typeof knowledgeCitationSchema>;
export const searchKnowledgeOutputSchema = z.object({
  query: z.string(),
  passages: z.array(knowledgeCitationSchema),
});
export type SearchKnowledgeOutput = z.infer<typeof searchKnowledgeOutputSchema>;
