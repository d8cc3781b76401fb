import { unzipSync, zipSync } from 'fflate';
import { Document, Packer, Paragraph } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/**
 * Knowledge files made by libraries in the test itself (no binaries in the repository): PDFs by
 * pdf-lib, DOCX by docx, archives by fflate; and the multipart body a browser would send.
 */

/** A PDF whose page n (from 1) holds `pages[n - 1]`, one line per sentence. */
export async function pdfOf(pages: string[][]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 16, size: 11, font }));
  }
  return pdf.save();
}

/**
 * A PDF of `count` empty pages, written object by object (pdf-lib takes seconds for 10,000 pages;
 * this takes milliseconds): a catalog, one page tree and the pages, with a correct xref table.
 */
export function emptyPagesPdf(count: number): Uint8Array {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Count ${count} /Kids [${Array.from({ length: count }, (_, i) => `${i + 3} 0 R`).join(' ')}] >>`,
    ...Array.from({ length: count }, () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>'),
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}

export async function docxOf(paragraphs: string[]): Promise<Uint8Array> {
  const doc = new Document({ sections: [{ children: paragraphs.map((p) => new Paragraph(p)) }] });
  return new Uint8Array(await Packer.toBuffer(doc));
}

/**
 * A zip bomb dressed as a DOCX: a real document's entries, plus one entry of `unpackedBytes`
 * zeros that deflate to almost nothing.
 */
export async function docxBomb(unpackedBytes: number): Promise<Uint8Array> {
  const entries = unzipSync(await docxOf(['An innocent paragraph.']));
  return zipSync({ ...entries, 'word/media/padding.bin': new Uint8Array(unpackedBytes) }, { level: 9 });
}

/** A PNG's first bytes: enough for any sniffer to call it an image. */
export const PNG_BYTES = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1,
  8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89, 0, 0, 0, 0,
]);

/** One part of a multipart body: a file (bytes, name, type) or a text field. */
export type Part =
  | { field: string; name: string; bytes: Uint8Array | string; type?: string }
  | { field: string; value: string };

/** The body and Content-Type a browser's FormData would send for these parts. */
export async function multipartBody(
  parts: Part[],
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const part of parts) {
    if ('value' in part) form.append(part.field, part.value);
    else
      form.append(
        part.field,
        new Blob([typeof part.bytes === 'string' ? part.bytes : Buffer.from(part.bytes)], {
          type: part.type ?? '',
        }),
        part.name,
      );
  }
  const response = new Response(form);
  return {
    payload: Buffer.from(await response.arrayBuffer()),
    headers: { 'content-type': response.headers.get('content-type')! },
  };
}
