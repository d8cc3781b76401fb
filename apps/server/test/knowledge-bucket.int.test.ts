import { agentImportResultSchema } from '@cadre/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamedText } from './support/chat-fixtures.ts';
import { FAKE_S3_SECRET, startFakeS3, type FakeS3 } from './support/fake-s3.ts';
import { addFile, API, askAgent, createAgent, filesOf, uploadFile } from './support/knowledge-api.ts';
import { pdfOf } from './support/knowledge-files.ts';
import { tableCounts } from './support/seed.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

const HANDBOOK = '# Handbook\n\nEvery employee gets 27 days of paid holiday a year.\n';
const REFUNDS = [['Refund policy'], ['Refunds are issued within 14 days of the return arriving.']];

/**
 * Issue 20 item 2: with KNOWLEDGE_S3_BUCKET set, files' bytes live in an S3-compatible bucket (a
 * local fake that checks every request's SigV4 signature), not in the database, and nothing in the
 * bucket outlives its file.
 */
describe(`knowledge files in an S3-compatible bucket on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let s3: FakeS3;
  let t: TestApp;
  let alice: { authorization: string };
  let bob: { authorization: string };
  let agentId: number;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    s3 = await startFakeS3();
    t = await createTestApp({ ...issuer.env, ...s3.env });
    // The workspace's admin is someone else, so Alice and Bob may delete their own accounts.
    await signInAs(t, issuer, { sub: 'admin' });
    ({ auth: alice } = await signInAs(t, issuer, { sub: 'alice', email: 'alice@example.com' }));
    ({ auth: bob } = await signInAs(t, issuer, { sub: 'bob', email: 'bob@example.com' }));
    agentId = await createAgent(t, alice, 'Bucketed');
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
    await issuer?.close();
  });

  const download = (auth: object, id: number, fileId: string) =>
    t.app.inject({
      method: 'GET',
      url: `${API}/agents/${id}/files/${fileId}/content`,
      headers: auth as Record<string, string>,
    });
  const contentRows = async () =>
    Number(
      (
        await t.db.kysely
          .selectFrom('knowledge_file_contents')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const dueDeletions = () =>
    t.db.kysely.selectFrom('knowledge_object_deletions').select('object_key').execute();

  it('keeps the bytes in the bucket under the file id, reads them back, and finds the passages', async () => {
    const handbook = await addFile(t, alice, agentId, 'handbook.md', HANDBOOK);
    const pdf = await pdfOf(REFUNDS);
    const refunds = await addFile(t, alice, agentId, 'refunds.pdf', pdf);

    expect([...s3.objects.keys()].sort()).toEqual(
      [`knowledge/${handbook.id}`, `knowledge/${refunds.id}`].sort(),
    );
    expect(s3.objects.get(`knowledge/${handbook.id}`)).toMatchObject({ contentType: 'text/markdown' });
    expect(new Uint8Array(s3.objects.get(`knowledge/${refunds.id}`)!.bytes)).toEqual(pdf);
    expect(await contentRows()).toBe(0);
    // Each object was claimed by its file's transaction: nothing waits for deletion.
    expect(await dueDeletions()).toEqual([]);

    const res = await download(alice, agentId, refunds.id);
    expect(res.statusCode).toBe(200);
    expect(new Uint8Array(res.rawPayload)).toEqual(pdf);
    expect(s3.requests.at(-1)).toEqual({ method: 'GET', key: `knowledge/${refunds.id}` });
    expect((await download(bob, agentId, refunds.id)).statusCode).toBe(404);

    const answer = streamedText(await askAgent(t, alice, agentId, 'What do the files say about refunds?'));
    expect(answer).toContain('Refunds are issued within 14 days');

    // Deleted, the file stays in the history with its object; a restore serves it from the bucket again.
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `${API}/agents/${agentId}/files/${refunds.id}`,
      headers: alice,
    });
    expect(removed.statusCode).toBe(204);
    expect(s3.objects.has(`knowledge/${refunds.id}`)).toBe(true);
    expect((await download(alice, agentId, refunds.id)).statusCode).toBe(404);
    const restored = await t.app.inject({
      method: 'POST',
      url: `${API}/agents/${agentId}/versions/3/restore`,
      headers: alice,
    });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(new Uint8Array((await download(alice, agentId, refunds.id)).rawPayload)).toEqual(pdf);
  });

  it('answers 503 when the bucket is down, writing no file, and sweeps what a failed put may have left', async () => {
    const before = await tableCounts(t.db, ['audit_events', 'knowledge_object_deletions']);
    const objects = s3.objects.size;

    s3.failing = true;
    const upload = await uploadFile(t, alice, agentId, 'outage.md', 'Written while the bucket was down.');
    expect(upload.statusCode, upload.body).toBe(503);
    expect(upload.headers['retry-after']).toBe('5');
    expect(upload.json().detail).toContain('KNOWLEDGE_S3_BUCKET');
    const [listed] = await filesOf(t, alice, agentId);
    expect((await download(alice, agentId, listed!.id)).statusCode).toBe(503);
    expect(await tableCounts(t.db, ['audit_events', 'knowledge_object_deletions'])).toEqual(before);
    // The object the put may have written is due now; the sweep could not reach the bucket either.
    const due = await dueDeletions();
    expect(due).toHaveLength(1);
    expect(due[0]!.object_key).toMatch(/^knowledge\/[0-9a-f-]{36}$/);

    // Back up: the next upload works, and the next sweep (after an erase) deletes what was due.
    s3.failing = false;
    const note = await addFile(t, alice, agentId, 'note.md', 'A note about the bicycle shed.');
    expect(s3.objects.size).toBe(objects + 1);
    const erase = await t.app.inject({
      method: 'DELETE',
      url: `${API}/agents/${agentId}/files/${note.id}?erase=true`,
      headers: alice,
    });
    expect(erase.statusCode).toBe(204);
    expect(s3.objects.has(`knowledge/${note.id}`)).toBe(false);
    expect(s3.requests).toContainEqual({ method: 'DELETE', key: due[0]!.object_key });
    expect(await dueDeletions()).toEqual([]);

    // A put S3 refuses (SlowDown on every retry) leaves nothing behind at all.
    s3.putsLeft = 0;
    const slow = await uploadFile(t, alice, agentId, 'slow.md', 'Written while S3 said slow down.');
    s3.putsLeft = Infinity;
    expect(slow.statusCode).toBe(503);
    expect(await dueDeletions()).toEqual([]);
    expect(s3.objects.size).toBe(objects);
    // The failures were logged, without the bucket's secret key.
    expect(t.logs.join('')).toContain('knowledge bucket failed');
    expect(t.logs.join('')).not.toContain(FAKE_S3_SECRET);
  });

  it('exports the zip from the bucket, and the import puts copies in it for the new owner', async () => {
    const exported = await t.app.inject({
      method: 'GET',
      url: `${API}/agents/${agentId}/export?include=files`,
      headers: alice,
    });
    expect(exported.statusCode).toBe(200);
    const imported = await t.app.inject({
      method: 'POST',
      url: `${API}/agents/import`,
      headers: { ...bob, 'content-type': 'application/zip' },
      payload: exported.rawPayload,
    });
    expect(imported.statusCode, imported.body).toBe(201);
    const result = agentImportResultSchema.parse(imported.json());
    const files = await filesOf(t, bob, result.agent.id);
    expect(files.map((f) => f.name)).toEqual(['handbook.md', 'refunds.pdf']);
    for (const file of files) expect(s3.objects.has(`knowledge/${file.id}`)).toBe(true);
    const res = await download(bob, result.agent.id, files[0]!.id);
    expect(res.body).toBe(HANDBOOK);
    expect(await contentRows()).toBe(0);

    // Deleting the agent deletes its objects (its files' rows go by cascade; a trigger marks them due).
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `${API}/agents/${result.agent.id}`,
      headers: bob,
    });
    expect(gone.statusCode).toBe(204);
    for (const file of files) expect(s3.objects.has(`knowledge/${file.id}`)).toBe(false);
    expect(await dueDeletions()).toEqual([]);
  });

  it('deletes the bucket objects of a user who deletes their data', async () => {
    expect(s3.objects.size).toBe(2);
    const res = await t.app.inject({ method: 'DELETE', url: `${API}/users/me`, headers: alice });
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect(s3.objects.size).toBe(0);
    expect(await dueDeletions()).toEqual([]);
  });
});
