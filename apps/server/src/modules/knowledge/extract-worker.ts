import { parentPort, workerData } from 'node:worker_threads';
import { convert } from 'html-to-text';
import mammoth from 'mammoth';
import { extractText, getDocumentProxy } from 'unpdf';

/**
 * Runs in its own worker thread with a heap limit and a deadline (extract.ts): reads the text of a
 * PDF, DOCX or HTML file, which means parsing input nobody vouched for. Node strips this file's
 * types when it is started from the sources; the build bundles it as dist/knowledge-extract.js.
 * It imports nothing of the server's, so it loads only what extraction needs.
 */

/** What the server asks; the bytes are transferred, not copied. */
export interface ExtractRequest {
  kind: 'pdf' | 'docx' | 'html';
  bytes: Uint8Array;
  maxPdfPages: number;
}

/** Each page's text (one page with a null number for kinds without pages), or why not. */
export type ExtractReply =
  | { ok: true; pages: { page: number | null; text: string }[] }
  | { ok: false; reason: 'too_many_pages' | 'unreadable'; pages?: number; message?: string };

async function extract({ kind, bytes, maxPdfPages }: ExtractRequest): Promise<ExtractReply> {
  try {
    if (kind === 'pdf') {
      const pdf = await getDocumentProxy(bytes);
      // Refused on its page count before any page is read.
      if (pdf.numPages > maxPdfPages) return { ok: false, reason: 'too_many_pages', pages: pdf.numPages };
      const { text } = await extractText(pdf, { mergePages: false });
      return { ok: true, pages: text.map((t, i) => ({ page: i + 1, text: t })) };
    }
    if (kind === 'docx') {
      const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
      return { ok: true, pages: [{ page: null, text: value }] };
    }
    const html = new TextDecoder().decode(bytes);
    const text = convert(html, {
      wordwrap: false,
      selectors: [
        { selector: 'a', options: { ignoreHref: true } },
        { selector: 'img', format: 'skip' },
      ],
    });
    return { ok: true, pages: [{ page: null, text }] };
  } catch (error) {
    return {
      ok: false,
      reason: 'unreadable',
      message: error instanceof Error ? error.message : String(error),
    };
  }
}

if (parentPort) parentPort.postMessage(await extract(workerData as ExtractRequest));
