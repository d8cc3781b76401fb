import type { AgentExportDocument, AgentExportFile, ValidationIssue } from '@cadre/contract';
import { HttpError, ValidationFailure } from '../../http/errors.ts';
import { readArchive, writeArchive } from './archive.ts';
import { displayName } from './kinds.ts';
import { sha256Of, type PreparedFile } from './prepare.ts';
import type { KnowledgeService } from './service.ts';

const invalid = (loc: (string | number)[], msg: string, type: string) =>
  new ValidationFailure([{ loc: ['body', 'files', ...loc], msg, type } as ValidationIssue]);

/**
 * The agent export with its files (archive.ts for the zip itself). An import's files go through
 * everything an upload does (prepare.ts: E1-E3, the extraction budget) and the per-agent limit,
 * before anything is written; the agents module then writes them in the agent's transaction. (The
 * agents module's `AgentArchives`.)
 */
export function agentArchives(knowledge: KnowledgeService) {
  const { settings } = knowledge;
  const limits = {
    maxArchiveBytes: settings.maxArchiveBytes,
    maxFileBytes: settings.maxFileBytes,
    maxFilesPerAgent: settings.maxFilesPerAgent,
  };
  return {
    maxArchiveBytes: settings.maxArchiveBytes,

    async write(userId: number, agentId: number, document: AgentExportDocument): Promise<Uint8Array> {
      const files = await knowledge.repo.list(userId, agentId);
      const total = files.reduce((sum, f) => sum + f.size_bytes, 0);
      if (total > settings.maxArchiveBytes)
        throw new HttpError(
          'unprocessable_content',
          `The agent's files come to ${total} bytes, more than an import reads (${settings.maxArchiveBytes}, KNOWLEDGE_MAX_ARCHIVE_BYTES); export it without them.`,
        );
      const contents: Uint8Array[] = [];
      for (const file of files) contents.push((await knowledge.content(userId, agentId, file.id)).bytes);
      const listed = files.map((f, i) => ({
        entry: `files/${i + 1}`,
        name: f.name,
        media_type: f.media_type,
        size_bytes: f.size_bytes,
        sha256: f.sha256,
      }));
      return writeArchive(
        { ...document, files: listed },
        files.map((f, i) => ({ bytes: contents[i]!, media_type: f.media_type })),
      );
    },

    read: (zip: Uint8Array) => readArchive(zip, limits),

    async prepare(listed: AgentExportFile[], entries: Map<string, Uint8Array>) {
      if (listed.length > settings.maxFilesPerAgent)
        throw invalid(
          [],
          `lists ${listed.length} files; an agent may have at most ${settings.maxFilesPerAgent} (KNOWLEDGE_MAX_FILES_PER_AGENT)`,
          'too_many_files',
        );
      const named = new Set(listed.map((f) => f.entry));
      const stray = [...entries.keys()].find((entry) => !named.has(entry));
      if (stray) throw invalid([], `does not list the archive's entry ${stray}`, 'unlisted_entry');
      const prepared: PreparedFile[] = [];
      for (const [i, file] of listed.entries()) {
        const bytes = entries.get(file.entry);
        if (!bytes) throw invalid([i, 'entry'], `${file.entry} is not in the archive`, 'missing_entry');
        if (sha256Of(bytes) !== file.sha256)
          throw invalid([i, 'sha256'], `does not match the bytes of ${file.entry}`, 'checksum_mismatch');
        try {
          prepared.push(await knowledge.prepare({ filename: file.name, mimetype: file.media_type, bytes }));
        } catch (error) {
          if (!(error instanceof HttpError)) throw error;
          throw invalid([i], `${displayName(file.name)}: ${error.detail}`, 'file_refused');
        }
      }
      return knowledge.stage(prepared);
    },
  };
}
