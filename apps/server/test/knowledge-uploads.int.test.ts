import { knowledgeFileListSchema } from '@cadre/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  docxBomb,
  docxOf,
  emptyPagesPdf,
  multipartBody,
  pdfOf,
  PNG_BYTES,
  type Part,
} from './support/knowledge-files.ts';
import { tableCounts } from './support/seed.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

const API = '/backend/api/v1';
const MAX_FILE_BYTES = 256 * 1024;

/** Security tests E1-E3 (shared/reference/security-tests.md) for knowledge-file uploads. */
describe(`knowledge uploads refuse what they must (E1-E3) on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let alice: { authorization: string };
  let agentId: number;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    t = await createTestApp({
      ...issuer.env,
      KNOWLEDGE_MAX_FILE_BYTES: String(MAX_FILE_BYTES),
      KNOWLEDGE_MAX_UNZIPPED_BYTES: String(8 * 1024 * 1024),
      KNOWLEDGE_MAX_PDF_PAGES: '500',
    });
    ({ auth: alice } = await signInAs(t, issuer, { sub: 'alice', email: 'alice@example.com' }));
    const created = await t.app.inject({
      method: 'POST',
      url: `${API}/agents/`,
      headers: alice,
      payload: { name: 'Reader', description: 'Reads files', tool_ids: [] },
    });
    agentId = created.json<{ id: number }>().id;
  });
  afterAll(async () => {
    await t?.close();
    await issuer?.close();
  });

  const post = (payload: Buffer | string, headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: `${API}/agents/${agentId}/files`,
      headers: { ...alice, ...headers },
      payload,
    });
  const upload = async (parts: Part[]) => {
    const body = await multipartBody(parts);
    return post(body.payload, body.headers);
  };
  const listed = async () =>
    knowledgeFileListSchema.parse(
      (await t.app.inject({ method: 'GET', url: `${API}/agents/${agentId}/files`, headers: alice })).json(),
    );

  /** A refused upload answers `status` with a detail matching `detail`, and writes nothing. */
  const refused = async (
    make: () => Promise<{ statusCode: number; json(): unknown }>,
    status: number,
    detail: RegExp,
  ) => {
    const before = await tableCounts(t.db);
    const res = await make();
    expect(res.statusCode).toBe(status);
    expect((res.json() as { detail: string }).detail).toMatch(detail);
    expect(await tableCounts(t.db)).toEqual(before);
  };

  it('E1: a name is display text, never a path; the file is stored and read back by a server UUID', async () => {
    const names = [
      ['../../etc/passwd.md', 'passwd.md'],
      ['..%2f..%2fsecret.md', '%2f..%2fsecret.md'],
      ['/abs/notes.md', 'notes.md'],
      ['C:\\x\\win.md', 'win.md'],
      ['a\u0000b.md', 'ab.md'],
      [`${'é'.repeat(300)}.md`, `${'é'.repeat(197)}.md`],
    ] as const;
    for (const [given, shown] of names) {
      const res = await upload([{ field: 'file', name: given, bytes: `text of ${shown}` }]);
      expect(res.statusCode, given).toBe(201);
      const file = res.json<{ id: string; name: string }>();
      expect(file.name).toBe(shown);
      expect(file.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const back = await t.app.inject({
        method: 'GET',
        url: `${API}/agents/${agentId}/files/${file.id}/content`,
        headers: alice,
      });
      expect(back.body).toBe(`text of ${shown}`);
      // The header carries the name encoded, never a path or a raw quote.
      expect(back.headers['content-disposition']).toMatch(
        /^attachment; filename="[\w.%-]+"; filename\*=UTF-8''/,
      );
    }
    // A path in place of the id is not a file id at all.
    const traversal = await t.app.inject({
      method: 'GET',
      url: `${API}/agents/${agentId}/files/..%2f..%2fetc%2fpasswd/content`,
      headers: alice,
    });
    expect(traversal.statusCode).toBe(422);
  });

  it('E2: only multipart with exactly one part, the file, is accepted', async () => {
    await refused(
      () =>
        post(JSON.stringify({ files: ['x'], filepath: '/etc/passwd', path: '/etc', url: 'file:///etc' }), {
          'content-type': 'application/json',
        }),
      415,
      /multipart\/form-data/,
    );
    await refused(
      () =>
        upload([
          { field: 'file', name: 'a.md', bytes: 'one' },
          { field: 'file', name: 'b.md', bytes: 'two' },
        ]),
      413,
      /one part only/,
    );
    await refused(() => upload([{ field: 'path', value: '/etc/passwd' }]), 413, /one part only/);
    await refused(() => upload([]), 422, /no file/);
    await refused(() => upload([{ field: 'document', name: 'a.md', bytes: 'x' }]), 422, /part "file"/);
  });

  it('E3: a file over the limit is refused with 413, by its declared length before the body is read, and while it is read', async () => {
    // Declared larger than allowed: refused from the headers (the body here is tiny).
    const small = await multipartBody([{ field: 'file', name: 'a.md', bytes: 'x' }]);
    await refused(
      () => post(small.payload, { ...small.headers, 'content-length': String(MAX_FILE_BYTES + 64 * 1024) }),
      413,
      /larger than 262144 bytes.*KNOWLEDGE_MAX_FILE_BYTES/,
    );
    // Within the envelope but one byte over: busboy's limit stops the read.
    await refused(
      () => upload([{ field: 'file', name: 'big.md', bytes: 'x'.repeat(MAX_FILE_BYTES + 1) }]),
      413,
      /larger than/,
    );
    // Exactly at the limit is fine.
    expect(
      (await upload([{ field: 'file', name: 'full.md', bytes: 'y'.repeat(MAX_FILE_BYTES) }])).statusCode,
    ).toBe(201);
  });

  it('E3: the type is sniffed from the bytes; a name or header that disagrees is refused with 415', async () => {
    const pdf = await pdfOf([['A real PDF.']]);
    await refused(() => upload([{ field: 'file', name: 'image.pdf', bytes: PNG_BYTES }]), 415, /image\/png/);
    await refused(
      () => upload([{ field: 'file', name: 'notes.md', bytes: pdf }]),
      415,
      /application\/pdf but its name ends in \.md/,
    );
    await refused(
      () => upload([{ field: 'file', name: 'report.pdf', bytes: 'plain text' }]),
      415,
      /text\/plain but its name ends in \.pdf/,
    );
    await refused(
      () => upload([{ field: 'file', name: 'report', bytes: 'plain text', type: 'application/pdf' }]),
      415,
      /it was sent as application\/pdf/,
    );
    await refused(
      () => upload([{ field: 'file', name: 'blob.txt', bytes: Uint8Array.from([0, 1, 2, 3, 255]) }]),
      415,
      /binary/,
    );
    // Without a telling name, the bytes decide.
    const sniffed = await upload([
      { field: 'file', name: 'scan', bytes: pdf, type: 'application/octet-stream' },
    ]);
    expect(sniffed.statusCode).toBe(201);
    expect(sniffed.json()).toMatchObject({ media_type: 'application/pdf', pages: 1 });
    const docx = await upload([
      { field: 'file', name: 'letter.docx', bytes: await docxOf(['Dear reader, hello.']) },
    ]);
    expect(docx.statusCode).toBe(201);
    expect(docx.json()).toMatchObject({ media_type: expect.stringContaining('wordprocessingml') });
    const html = await upload([
      {
        field: 'file',
        name: 'page.html',
        bytes: '<!doctype html><title>T</title><p>Hi <script>evil()</script>there</p>',
      },
    ]);
    expect(html.statusCode).toBe(201);
    // What the search reads of each kind: the page's text without its script, a CSV's cells, plain
    // text as it is.
    const textOf = async (fileId: string) =>
      (
        await t.db.kysely
          .selectFrom('knowledge_passages')
          .select('text')
          .where('file_id', '=', fileId)
          .orderBy('ordinal')
          .execute()
      )
        .map((p) => p.text)
        .join('\n');
    const pageText = await textOf(html.json().id);
    expect(pageText).toMatch(/Hi\s+there/);
    expect(pageText).not.toContain('evil');
    const csv = await upload([
      { field: 'file', name: 'prices.csv', bytes: 'item,price\nTea,3 euros\nCoffee,4 euros\n' },
    ]);
    expect(csv.statusCode).toBe(201);
    expect(csv.json()).toMatchObject({ media_type: 'text/csv' });
    expect(await textOf(csv.json().id)).toMatch(/Coffee.*4 euros/);
    const plain = await upload([
      { field: 'file', name: 'notes.txt', bytes: 'The office opens at nine on Mondays.' },
    ]);
    expect(plain.statusCode).toBe(201);
    expect(plain.json()).toMatchObject({ media_type: 'text/plain' });
    expect(await textOf(plain.json().id)).toContain('The office opens at nine on Mondays.');
  });

  it('E3: a zip bomb dressed as a DOCX and a 10,000-page PDF are refused within the limits', async () => {
    await refused(
      async () => upload([{ field: 'file', name: 'bomb.docx', bytes: await docxBomb(16 * 1024 * 1024) }]),
      422,
      /would unpack to \d+ bytes; at most 8388608/,
    );
    const pages = emptyPagesPdf(10_000);
    // An instance that takes files of a few megabytes: the page count, not the size, refuses it.
    const roomy = await createTestApp(
      { ...t.settings, KNOWLEDGE_MAX_FILE_BYTES: String(4 * 1024 * 1024) },
      {},
      { sameDatabaseAs: t },
    );
    try {
      const body = await multipartBody([{ field: 'file', name: 'huge.pdf', bytes: pages }]);
      const before = await tableCounts(t.db);
      const res = await roomy.app.inject({
        method: 'POST',
        url: `${API}/agents/${agentId}/files`,
        headers: { ...alice, ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().detail).toMatch(/has 10000 pages; at most 500/);
      expect(await tableCounts(t.db)).toEqual(before);
    } finally {
      await roomy.close();
    }
  });

  it('E3: extraction runs with a time and a memory budget', async () => {
    const pdf = await pdfOf(Array.from({ length: 40 }, (_, i) => [`Page ${i + 1} of a slow read.`]));
    const slow = await createTestApp(
      { ...t.settings, KNOWLEDGE_EXTRACT_TIMEOUT_MS: '100' },
      {},
      { sameDatabaseAs: t },
    );
    const tight = await createTestApp(
      { ...t.settings, KNOWLEDGE_EXTRACT_MEMORY_MB: '32', KNOWLEDGE_MAX_FILE_BYTES: String(8 * 1024 * 1024) },
      {},
      { sameDatabaseAs: t },
    );
    try {
      for (const [app, bytes, name, detail] of [
        [slow, pdf, 'slow.pdf', /took longer than 0.1 s \(KNOWLEDGE_EXTRACT_TIMEOUT_MS\)/],
        [tight, nestedHtml(), 'deep.html', /more than 32 MB of memory \(KNOWLEDGE_EXTRACT_MEMORY_MB\)/],
      ] as const) {
        const body = await multipartBody([{ field: 'file', name, bytes }]);
        const before = await tableCounts(t.db);
        const res = await app.app.inject({
          method: 'POST',
          url: `${API}/agents/${agentId}/files`,
          headers: { ...alice, ...body.headers },
          payload: body.payload,
        });
        expect(res.statusCode, name).toBe(422);
        expect(res.json().detail).toMatch(detail);
        expect(await tableCounts(t.db)).toEqual(before);
      }
    } finally {
      await slow.close();
      await tight.close();
    }
    // The refusals left only the files accepted above.
    expect((await listed()).every((f) => f.passage_count > 0)).toBe(true);
  });
});

/** HTML of 4 MB that parses into far more memory than that: a million small elements. */
function nestedHtml(): string {
  return `<!doctype html><html><body>${'<p><b>x</b><i>y</i></p>'.repeat(200_000)}</body></html>`;
}
