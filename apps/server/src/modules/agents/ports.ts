import type { Kysely } from 'kysely';
import type { AgentExportDocument, AgentExportFile, AgentSnapshotFile } from '@cadre/contract';
import type { Database } from '../../db/schema.ts';

/**
 * What the agents module needs of the knowledge module (`app.ts` wires it in): the files each
 * version lists, and the files an export or import carries. A file is named as a version lists it
 * (`AgentSnapshotFile`).
 */

/** Knowledge files checked and indexed for a new agent (an import), not written yet. */
export interface StagedFiles {
  readonly files: AgentSnapshotFile[];
  /** In the import's transaction, once the agent and its first version exist. */
  attach(trx: Kysely<Database>, userId: number, agentId: number, version: number): Promise<void>;
  /** After a transaction that did not commit: nothing of them stays, in the database or a bucket. */
  discard(): Promise<void>;
}

/**
 * The agent export with its files, as a zip (for the agents routes): written
 * from the document and the agent's files, read back within the limits of an upload (E1-E3).
 */
export interface AgentArchives {
  /** The most an import zip may be, packed or unpacked (KNOWLEDGE_MAX_ARCHIVE_BYTES). */
  readonly maxArchiveBytes: number;
  /** `agent.json` (the document, listing the files) and the agent's files' bytes. */
  write(userId: number, agentId: number, document: AgentExportDocument): Promise<Uint8Array>;
  /** An import zip: agent.json's JSON, not yet checked, and the files' bytes by entry name. */
  read(zip: Uint8Array): { document: unknown; entries: Map<string, Uint8Array> };
  /** The document's files from the archive, checked and indexed: 422 naming the file otherwise. */
  prepare(listed: AgentExportFile[], entries: Map<string, Uint8Array>): Promise<StagedFiles>;
}

/**
 * The knowledge files' part in an agent's versions: which files each version lists, and what a
 * restore does to them.
 */
export interface KnowledgeHistory {
  /** The files each of the agent's versions lists, by version number, read in `executor`. */
  filesByVersion(
    executor: Kysely<Database>,
    userId: number,
    agentId: number,
  ): Promise<(version: number) => AgentSnapshotFile[]>;
  /**
   * In a restore's transaction: the agent's files become exactly `files` from version `atVersion`
   * on. Answers those of `files` that cannot come back (erased, or gone before files were kept).
   */
  restore(
    trx: Kysely<Database>,
    userId: number,
    agentId: number,
    files: AgentSnapshotFile[],
    atVersion: number,
  ): Promise<AgentSnapshotFile[]>;
}

/**
 * Connects the user to a service that needs no account (the services module), for an agent made
 * from a template.
 */
export type ConnectNoAuthService = (userId: number, serviceId: number) => Promise<void>;
