import crypto from 'node:crypto';
import { agentExportSchema, agentImportResultSchema } from '@cadre/contract';
import { strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamedText } from './support/chat-fixtures.ts';
import { pdfOf, PNG_BYTES } from './support/knowledge-files.ts';
import { addFile, API, askAgent, createAgent, filesOf, versionsOf } from './support/knowledge-api.ts';
import { tableCounts } from './support/seed.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

const MAX_FILE_BYTES = 64 * 1024;
const MAX_ARCHIVE_BYTES = 160 * 1024;
const HANDBOOK = '# Handbook\n\nEvery employee gets 27 days of paid holiday a year.\n';
const REFUNDS = [['Refund policy'], ['Refunds are issued within 14 days of the return arriving.']];

const sha256 = (bytes: Uint8Array | string) => crypto.createHash('sha256').update(bytes).digest('hex');

/** Issue 20 item 4: the agent export with its knowledge files, as a zip, and its import (E1-E3). */
describe(`agent export and import with files on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let alice: { authorization: string };
  let bob: { authorization: string };
  let agentId: number;
  let exported: Uint8Array;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    t = await createTestApp({
      ...issuer.env,
      KNOWLEDGE_MAX_FILE_BYTES: String(MAX_FILE_BYTES),
      KNOWLEDGE_MAX_ARCHIVE_BYTES: String(MAX_ARCHIVE_BYTES),
      KNOWLEDGE_MAX_FILES_PER_AGENT: '3',
    });
    ({ auth: alice } = await signInAs(t, issuer, { sub: 'alice', email: 'alice@example.com' }));
    ({ auth: bob } = await signInAs(t, issuer, { sub: 'bob', email: 'bob@example.com', name: 'Bob' }));
    agentId = await createAgent(t, alice, 'Librarian');
    await addFile(t, alice, agentId, 'handbook.md', HANDBOOK);
    await addFile(t, alice, agentId, 'refunds.pdf', await pdfOf(REFUNDS));
  });
  afterAll(async () => {
    await t?.close();
    await issuer?.close();
  });

  const exportOf = (id: number, query = '', headers: object = alice) =>
    t.app.inject({
      method: 'GET',
      url: `${API}/agents/${id}/export${query}`,
      headers: headers as Record<string, string>,
    });
  const importZip = (zip: Uint8Array, auth = bob) =>
    t.app.inject({
      method: 'POST',
      url: `${API}/agents/import`,
      headers: { ...auth, 'content-type': 'application/zip' },
      payload: Buffer.from(zip),
    });
  /** The export's entries with some changed: `agent.json` as an object, the rest as bytes. */
  const variant = (change: (entries: Zippable, document: Record<string, unknown>) => void) => {
    const entries: Zippable = unzipSync(exported);
    const document = JSON.parse(new TextDecoder().decode(entries['agent.json'] as Uint8Array));
    change(entries, document);
    entries['agent.json'] = strToU8(JSON.stringify(document));
    return zipSync(entries);
  };
  /** An import refused with 422 whose answer contains `words`, writing nothing. */
  const refused = async (zip: Uint8Array, words: string, status = 422) => {
    const before = await tableCounts(t.db);
    const res = await importZip(zip);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.body).toContain(words);
    expect(await tableCounts(t.db)).toEqual(before);
  };

  it('exports the document and the files as a zip; the JSON export stays as it was', async () => {
    const json = await exportOf(agentId);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.json()).not.toHaveProperty('files');

    const res = await exportOf(agentId, '?include=files');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe('attachment; filename="Librarian.agent.zip"');
    exported = new Uint8Array(res.rawPayload);
    const entries = unzipSync(exported);
    expect(Object.keys(entries).sort()).toEqual(['agent.json', 'files/1', 'files/2']);
    const document = agentExportSchema.parse(JSON.parse(new TextDecoder().decode(entries['agent.json'])));
    expect(document.agent.name).toBe('Librarian');
    expect(document.files.map((f) => [f.entry, f.name, f.media_type])).toEqual([
      ['files/1', 'handbook.md', 'text/markdown'],
      ['files/2', 'refunds.pdf', 'application/pdf'],
    ]);
    expect(new TextDecoder().decode(entries['files/1'])).toBe(HANDBOOK);
    expect(document.files[1]!.sha256).toBe(sha256(entries['files/2']!));

    // Asked for by its type too.
    const byAccept = await exportOf(agentId, '', { ...alice, accept: 'application/zip' });
    expect(byAccept.headers['content-type']).toBe('application/zip');
    expect((await exportOf(agentId, '?include=everything')).statusCode).toBe(422);
    expect((await exportOf(agentId, '?include=files', bob)).statusCode).toBe(404);
  });

  it('imports the zip for another user as a new agent whose files are indexed and cited, in one version', async () => {
    const res = await importZip(exported);
    expect(res.statusCode, res.body).toBe(201);
    const result = agentImportResultSchema.parse(res.json());
    expect(result.files.map((f) => f.name)).toEqual(['handbook.md', 'refunds.pdf']);
    const newId = result.agent.id;
    expect(newId).not.toBe(agentId);
    const files = await filesOf(t, bob, newId);
    expect(files.map((f) => [f.name, f.media_type, f.pages])).toEqual([
      ['handbook.md', 'text/markdown', null],
      ['refunds.pdf', 'application/pdf', 2],
    ]);
    // New files for the new agent: none of Alice's ids.
    const own = await filesOf(t, alice, agentId);
    expect(files.map((f) => f.id)).not.toContain(own[0]!.id);
    const versions = await versionsOf(t, bob, newId);
    expect(versions.map((v) => [v.number, v.reason])).toEqual([[1, 'import']]);
    expect(versions[0]!.snapshot.files.map((f) => f.name)).toEqual(['handbook.md', 'refunds.pdf']);
    const answer = streamedText(await askAgent(t, bob, newId, 'What do the files say about refunds?'));
    expect(answer).toContain('Refunds are issued within 14 days');
    expect(answer).toMatch(/refunds\.pdf, page 2/);
  });

  it('answers a retried zip import with the same Idempotency-Key with the first agent, storing nothing twice', async () => {
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: `${API}/agents/import`,
        headers: { ...bob, 'content-type': 'application/zip', 'idempotency-key': 'zip-import-1' },
        payload: Buffer.from(exported),
      });
    const first = await send();
    expect(first.statusCode, first.body).toBe(201);
    const before = await tableCounts(t.db);
    const again = await send();
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(agentImportResultSchema.parse(again.json()).files.map((f) => f.name)).toEqual([
      'handbook.md',
      'refunds.pdf',
    ]);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it('E1: refuses entries whose names are paths, and files the document does not account for', async () => {
    for (const name of [
      '../handbook.md',
      '/etc/passwd',
      'files/../../x',
      'files\\1',
      'files/01',
      'handbook.md',
    ])
      await refused(
        variant((entries) => {
          entries[name] = strToU8('text');
        }),
        'a name in it is never a path',
      );
    await refused(
      variant((entries) => {
        entries['files/3'] = strToU8('An extra file nobody listed.');
      }),
      'does not list the archive',
    );
    await refused(
      variant((entries) => {
        delete entries['files/2'];
      }),
      'files/2 is not in the archive',
    );
    await refused(
      variant((_entries, document) => {
        (document.files as { entry: string }[])[0]!.entry = '../../etc/passwd';
      }),
      'never a path',
    );
    await refused(
      variant((entries) => {
        entries['files/1'] = strToU8('# Handbook\n\nChanged after the export.\n');
      }),
      'does not match the bytes of files/1',
    );
    // The name a file had is display text only, whatever it says.
    const res = await importZip(
      variant((_entries, document) => {
        (document.files as { name: string }[])[0]!.name = '../../etc/passwd.md';
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(agentImportResultSchema.parse(res.json()).files[0]!.name).toBe('passwd.md');
  });

  it('E3: refuses a zip bomb, an oversized archive and files an upload would refuse, writing nothing', async () => {
    // One entry that inflates past a file's limit from a few hundred bytes.
    const bomb = variant((entries, document) => {
      const zeros = new Uint8Array(MAX_FILE_BYTES * 8);
      entries['files/2'] = [zeros, { level: 9 }];
      (document.files as { sha256: string }[])[1]!.sha256 = sha256(zeros);
    });
    expect(bomb.length).toBeLessThan(4 * 1024);
    await refused(bomb, 'files/2 unpacks to more than 65536 bytes');
    // Entries each within a file's limit that inflate past the archive's in all, and too many of them.
    const entries = (count: number, bytes: number): Zippable =>
      Object.fromEntries(
        Array.from({ length: count }, (_, i) => [`files/${i + 1}`, [new Uint8Array(bytes), { level: 9 }]]),
      );
    await refused(
      zipSync({ 'agent.json': strToU8('{}'), ...entries(3, MAX_FILE_BYTES) }),
      'unpacks to more than 163840 bytes',
    );
    await refused(zipSync({ 'agent.json': strToU8('{}'), ...entries(4, 10) }), 'more than 3 files');
    const big = crypto.randomBytes(MAX_ARCHIVE_BYTES + 1024);
    await refused(big, 'too large', 413);
    await refused(
      variant((entries, document) => {
        entries['files/1'] = PNG_BYTES;
        (document.files as { sha256: string }[])[0]!.sha256 = sha256(PNG_BYTES);
      }),
      'handbook.md: The file is image/png (by its content)',
    );
    await refused(strToU8('not a zip at all'), 'no agent.json');
    await refused(
      variant((_entries, document) => {
        document.format_version = 99;
      }),
      'format_version',
    );
    await refused(zipSync({ 'agent.json': strToU8('{"format": "cadre.agent", ') }), 'not valid JSON');
    // A JSON document that lists files: the files travel in the zip only.
    const document = JSON.parse(new TextDecoder().decode(unzipSync(exported)['agent.json']));
    const before = await tableCounts(t.db);
    const json = await t.app.inject({
      method: 'POST',
      url: `${API}/agents/import`,
      headers: bob,
      payload: document,
    });
    expect(json.statusCode).toBe(422);
    expect(json.json()).toMatchObject({
      detail: [{ loc: ['body', 'files'], type: 'files_without_archive' }],
    });
    expect(await tableCounts(t.db)).toEqual(before);
  });
});
