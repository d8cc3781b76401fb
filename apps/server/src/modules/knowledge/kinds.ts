import { HttpError } from '../../http/errors.ts';

/** The kinds of file an agent's knowledge takes, and how each is recognised. */
export type KnowledgeKind = 'pdf' | 'docx' | 'markdown' | 'text' | 'html' | 'csv';

export const MEDIA_TYPES: Record<KnowledgeKind, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  markdown: 'text/markdown',
  text: 'text/plain',
  html: 'text/html',
  csv: 'text/csv',
};

const BY_EXTENSION: Record<string, KnowledgeKind> = {
  pdf: 'pdf',
  docx: 'docx',
  md: 'markdown',
  markdown: 'markdown',
  txt: 'text',
  text: 'text',
  html: 'html',
  htm: 'html',
  csv: 'csv',
};

const BY_MEDIA_TYPE = Object.fromEntries(
  Object.entries(MEDIA_TYPES).map(([kind, type]) => [type, kind as KnowledgeKind]),
) as Record<string, KnowledgeKind>;

/** Kinds whose bytes are text: their magic is "valid UTF-8 without control characters". */
const TEXT_KINDS = new Set<KnowledgeKind>(['markdown', 'text', 'html', 'csv']);

export const ACCEPTED = 'PDF, DOCX, Markdown, plain text, HTML or CSV';

/**
 * The name a person gave a file, as display text only (E1): never a path (the last segment of
 * anything that looks like one), no control characters, at most 200 characters. The stored key is
 * a server UUID; this is only shown.
 */
export function displayName(raw: string | undefined): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const withoutControls = (raw ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
  const lastSegment = withoutControls.split(/[\\/]/).pop() ?? '';
  const trimmed = lastSegment.trim().replace(/^\.+/, '');
  const chars = [...trimmed];
  if (chars.length <= 200) return trimmed || 'file';
  const extension = /\.[A-Za-z0-9]{1,10}$/.exec(trimmed)?.[0] ?? '';
  return chars.slice(0, 200 - extension.length).join('') + extension;
}

const extensionKind = (name: string) =>
  BY_EXTENSION[/\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? ''];

const unsupported = (what: string) =>
  new HttpError('unsupported_media_type', `The file ${what}; a knowledge file must be ${ACCEPTED}.`);

/** Whether the bytes are UTF-8 text without NUL or other control characters (tabs and newlines aside). */
function isText(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  return !/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text);
}

const looksLikeHtml = (bytes: Uint8Array) =>
  /^\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html|head|body)[\s>]/i.test(
    new TextDecoder().decode(bytes.subarray(0, 2048)).replace(/^\uFEFF/, ''),
  );

/**
 * The file's kind, sniffed from its bytes (E3): the name's extension and the part's declared type
 * only choose among the text kinds, and must agree with what the bytes are. Throws 415 naming what
 * the file is and what it claimed to be.
 */
export async function sniffKind(
  bytes: Uint8Array,
  name: string,
  declaredType?: string,
): Promise<KnowledgeKind> {
  const byName = extensionKind(name);
  const byHeader = declaredType ? BY_MEDIA_TYPE[declaredType.split(';')[0]!.trim().toLowerCase()] : undefined;
  // Loaded on the first upload, not at start (33 modules).
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = await fileTypeFromBuffer(bytes);
  let sniffed: KnowledgeKind;
  if (detected?.ext === 'pdf') sniffed = 'pdf';
  else if (detected?.ext === 'docx') sniffed = 'docx';
  else if (detected) throw unsupported(`is ${detected.mime} (by its content)`);
  else if (isText(bytes)) sniffed = looksLikeHtml(bytes) ? 'html' : 'text';
  else throw unsupported('is binary content of no supported kind');

  for (const [claim, source] of [
    [byName, `its name ends in .${name.split('.').pop()}`],
    [byHeader, `it was sent as ${declaredType}`],
  ] as const) {
    if (!claim) continue;
    const agrees = claim === sniffed || (TEXT_KINDS.has(claim) && TEXT_KINDS.has(sniffed));
    if (!agrees)
      throw new HttpError(
        'unsupported_media_type',
        `The file's content is ${MEDIA_TYPES[sniffed]} but ${source}; the type must match the content.`,
      );
  }
  // The text kinds differ only in how passages are cut; the name (then the header) says which.
  if (sniffed === 'pdf' || sniffed === 'docx') return sniffed;
  return byName ?? byHeader ?? sniffed;
}
