import { AGENT_ARCHIVE_DOCUMENT, AGENT_ARCHIVE_FILE_ENTRY, AGENT_IMPORT_LIMIT_BYTES } from '@cadre/contract';
import { strToU8, Unzip, UnzipInflate, UnzipPassThrough, zipSync, type Zippable } from 'fflate';
import { HttpError } from '../../http/errors.ts';

/**
 * The agent export with its files, as one zip: `agent.json` (the export document, whose `files`
 * lists each file's entry, name, type, size and SHA-256) and `files/1`, `files/2`… holding the
 * bytes. Entry names are made here, never from a file's name, and an import reads nothing else:
 * a name in the archive is never a path (E1).
 */

export interface ArchiveLimits {
  /** The zip's own size and everything it unpacks to, in all. */
  maxArchiveBytes: number;
  /** What one file may unpack to (an upload's limit). */
  maxFileBytes: number;
  maxFilesPerAgent: number;
}

const refuse = (detail: string) => new HttpError('unprocessable_content', detail);

/** A name from the archive as it may appear in a message: printable and short. */
const shown = (name: string) =>
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  JSON.stringify(name.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?').slice(0, 100));

/** Deflated where that helps: PDF and DOCX are compressed already. */
const packed = (mediaType: string) => mediaType.startsWith('text/');

export function writeArchive(document: object, files: { bytes: Uint8Array; media_type: string }[]) {
  const entries: Zippable = {
    [AGENT_ARCHIVE_DOCUMENT]: [strToU8(`${JSON.stringify(document, null, 2)}\n`), { level: 6 }],
  };
  files.forEach((file, i) => {
    entries[`files/${i + 1}`] = [file.bytes, { level: packed(file.media_type) ? 6 : 0 }];
  });
  return zipSync(entries);
}

/**
 * Reads an import zip within the limits (E3): every entry is inflated as a stream and counted, so
 * an entry that lies about its size (a zip bomb) is stopped at the limit, not unpacked. An entry
 * other than `agent.json` and `files/<n>`, a repeated one, or more entries than an agent may have
 * files is refused. Answers agent.json's JSON (not yet checked) and the files' bytes by entry.
 */
export function readArchive(zip: Uint8Array, limits: ArchiveLimits) {
  const entries = new Map<string, Uint8Array>();
  let failure: HttpError | undefined;
  let total = 0;
  let seen = 0;
  const unzip = new Unzip((file) => {
    if (failure) return;
    seen += 1;
    if (file.name !== AGENT_ARCHIVE_DOCUMENT && !AGENT_ARCHIVE_FILE_ENTRY.test(file.name)) {
      failure = refuse(
        `The archive holds the entry ${shown(file.name)}; an agent export holds only ${AGENT_ARCHIVE_DOCUMENT} and files/1, files/2… (a name in it is never a path).`,
      );
      return;
    }
    if (seen > limits.maxFilesPerAgent + 1) {
      failure = refuse(
        `The archive holds more than ${limits.maxFilesPerAgent} files, the most an agent may have (KNOWLEDGE_MAX_FILES_PER_AGENT).`,
      );
      return;
    }
    const cap = file.name === AGENT_ARCHIVE_DOCUMENT ? AGENT_IMPORT_LIMIT_BYTES : limits.maxFileBytes;
    const chunks: Uint8Array[] = [];
    let size = 0;
    file.ondata = (error, chunk, final) => {
      if (failure) return;
      if (error) {
        failure = refuse(`The archive's entry ${file.name} is damaged.`);
        return;
      }
      size += chunk.length;
      total += chunk.length;
      if (size > cap)
        failure = refuse(
          `The archive's entry ${file.name} unpacks to more than ${cap} bytes, the most ${file.name === AGENT_ARCHIVE_DOCUMENT ? 'the document' : 'a knowledge file (KNOWLEDGE_MAX_FILE_BYTES)'} may be.`,
        );
      else if (total > limits.maxArchiveBytes)
        failure = refuse(
          `The archive unpacks to more than ${limits.maxArchiveBytes} bytes, the most an import reads (KNOWLEDGE_MAX_ARCHIVE_BYTES).`,
        );
      if (failure) return file.terminate();
      chunks.push(chunk);
      if (!final) return;
      if (entries.has(file.name)) failure = refuse(`The archive holds ${file.name} twice.`);
      else entries.set(file.name, Buffer.concat(chunks, size));
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  unzip.register(UnzipPassThrough);
  try {
    unzip.push(zip, true);
  } catch {
    failure ??= refuse('The archive is not a readable zip file.');
  }
  if (failure) throw failure;
  const documentBytes = entries.get(AGENT_ARCHIVE_DOCUMENT);
  if (!documentBytes)
    throw refuse(`The archive has no ${AGENT_ARCHIVE_DOCUMENT}: it is not an agent export.`);
  entries.delete(AGENT_ARCHIVE_DOCUMENT);
  let document: unknown;
  try {
    document = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(documentBytes));
  } catch {
    throw refuse(`The archive's ${AGENT_ARCHIVE_DOCUMENT} is not valid JSON.`);
  }
  return { document, entries };
}
