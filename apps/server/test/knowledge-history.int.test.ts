import crypto from 'node:crypto';
import { agentRestoreResultSchema } from '@cadre/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamedText } from './support/chat-fixtures.ts';
import {
  addFile,
  API,
  askAgent,
  createAgent,
  filesOf,
  uploadFile,
  versionsOf,
} from './support/knowledge-api.ts';
import { tableCounts } from './support/seed.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

const HOLIDAYS = 'Every employee gets 27 days of paid holiday a year.';
const PARKING = 'Parking permits are renewed every January at the front desk.';
const LAPTOPS = 'Laptops are replaced every three years by the IT desk.';

/** Knowledge files in an agent's history: batches as one version, restore with files, erase. */
describe(`knowledge files in the agent's history on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let alice: { authorization: string };

  beforeAll(async () => {
    issuer = await startTestIssuer();
    t = await createTestApp(issuer.env);
    ({ auth: alice } = await signInAs(t, issuer, {
      sub: 'alice',
      email: 'alice@example.com',
      name: 'Alice',
    }));
  });
  afterAll(async () => {
    await t?.close();
    await issuer?.close();
  });

  const restore = async (agentId: number, number: number) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/agents/${agentId}/versions/${number}/restore`,
      headers: alice,
    });
    expect(res.statusCode, res.body).toBe(200);
    return agentRestoreResultSchema.parse(res.json());
  };
  const remove = (agentId: number, fileId: string, query = '') =>
    t.app.inject({
      method: 'DELETE',
      url: `${API}/agents/${agentId}/files/${fileId}${query}`,
      headers: alice,
    });
  const names = (files: { name: string }[]) => files.map((f) => f.name);
  const answer = async (agentId: number, question: string) =>
    streamedText(await askAgent(t, alice, agentId, question));

  it('records the uploads of one batch as one version, and keeps each version’s file list compact', async () => {
    const agentId = await createAgent(t, alice, 'Batched');
    const batch = crypto.randomUUID();
    await addFile(t, alice, agentId, 'holidays.md', HOLIDAYS, batch);
    await addFile(t, alice, agentId, 'parking.md', PARKING, batch);
    await addFile(t, alice, agentId, 'laptops.md', LAPTOPS, batch);
    let versions = await versionsOf(t, alice, agentId);
    expect(versions.map((v) => [v.number, v.reason, v.author])).toEqual([
      [2, 'files', 'Alice'],
      [1, 'create', 'Alice'],
    ]);
    expect(names(versions[0]!.snapshot.files)).toEqual(['holidays.md', 'parking.md', 'laptops.md']);
    expect(versions[1]!.snapshot.files).toEqual([]);

    // An upload outside the batch, or of the batch after another save, is a version of its own.
    await t.app.inject({
      method: 'PATCH',
      url: `${API}/agents/${agentId}`,
      headers: alice,
      payload: { name: 'Renamed' },
    });
    await addFile(t, alice, agentId, 'late.md', 'A late note about the canteen menu.', batch);
    await addFile(t, alice, agentId, 'alone.md', 'A note about bicycles.');
    versions = await versionsOf(t, alice, agentId);
    expect(versions.map((v) => [v.number, v.reason])).toEqual([
      [5, 'files'],
      [4, 'files'],
      [3, 'update'],
      [2, 'files'],
      [1, 'create'],
    ]);
    expect(names(versions[0]!.snapshot.files)).toHaveLength(5);
    expect(names(versions[2]!.snapshot.files)).toHaveLength(3);

    // A stored version names no file: which versions list a file is one row per attachment.
    const stored = await t.db.kysely
      .selectFrom('agent_versions')
      .select('snapshot')
      .where('agent_id', '=', agentId)
      .execute();
    for (const { snapshot } of stored) expect(JSON.parse(snapshot)).not.toHaveProperty('files');
    const spans = await t.db.kysely
      .selectFrom('knowledge_file_spans')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('agent_id', '=', agentId)
      .executeTakeFirstOrThrow();
    expect(Number(spans.n)).toBe(5);

    // A batch is named by a UUID the editor makes.
    const bad = await uploadFile(t, alice, agentId, 'x.md', 'text', 'not-a-uuid');
    expect(bad.statusCode).toBe(422);
    expect(JSON.stringify(bad.json())).toContain('batch');
  });

  it('restores a version with its files: a deleted file comes back, findable again, and a later one leaves', async () => {
    const agentId = await createAgent(t, alice, 'Restorer');
    const holidays = await addFile(t, alice, agentId, 'holidays.md', HOLIDAYS); // v2
    const parking = await addFile(t, alice, agentId, 'parking.md', PARKING); // v3
    expect((await remove(agentId, parking.id)).statusCode).toBe(204); // v4
    await addFile(t, alice, agentId, 'laptops.md', LAPTOPS); // v5
    expect(names(await filesOf(t, alice, agentId))).toEqual(['holidays.md', 'laptops.md']);
    expect(await answer(agentId, 'What do the files say about parking permits?')).toContain(
      'I found nothing',
    );
    // A deleted file is gone from the agent: not listed, not downloadable, not deleted twice.
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `${API}/agents/${agentId}/files/${parking.id}/content`,
          headers: alice,
        })
      ).statusCode,
    ).toBe(404);
    expect((await remove(agentId, parking.id)).statusCode).toBe(404);

    const restored = await restore(agentId, 3);
    expect(restored.files_not_restored).toEqual([]);
    expect(names(await filesOf(t, alice, agentId))).toEqual(['holidays.md', 'parking.md']);
    expect(await answer(agentId, 'What do the files say about parking permits?')).toContain(
      'Parking permits are renewed every January',
    );
    expect(await answer(agentId, 'What do the files say about laptops?')).toContain('I found nothing');
    const download = await t.app.inject({
      method: 'GET',
      url: `${API}/agents/${agentId}/files/${parking.id}/content`,
      headers: alice,
    });
    expect(download.body).toBe(PARKING);

    const versions = await versionsOf(t, alice, agentId);
    expect(versions[0]).toMatchObject({ number: 6, reason: 'restore', restored_from: 3 });
    expect(names(versions[0]!.snapshot.files)).toEqual(['holidays.md', 'parking.md']);
    // The history is unchanged by the restore: version 5 still lists what it listed.
    expect(names(versions.find((v) => v.number === 5)!.snapshot.files)).toEqual([
      'holidays.md',
      'laptops.md',
    ]);

    // Restoring the latest state back brings the laptop file back and parks the parking one again.
    await restore(agentId, 5);
    expect(names(await filesOf(t, alice, agentId))).toEqual(['holidays.md', 'laptops.md']);
    expect(holidays.id).toBe((await filesOf(t, alice, agentId))[0]!.id);
  });

  it('erases a file for good: its bytes and passages go, and a restore says it could not bring it back', async () => {
    const agentId = await createAgent(t, alice, 'Eraser');
    await addFile(t, alice, agentId, 'holidays.md', HOLIDAYS); // v2
    const parking = await addFile(t, alice, agentId, 'parking.md', PARKING); // v3
    const before = await tableCounts(t.db);
    const erased = await remove(agentId, parking.id, '?erase=true'); // v4
    expect(erased.statusCode).toBe(204);
    const after = await tableCounts(t.db);
    expect(after.knowledge_file_contents).toBe(before.knowledge_file_contents! - 1);
    expect(after.knowledge_passages).toBeLessThan(before.knowledge_passages!);
    // The row stays, so the history still names the file.
    expect(after.knowledge_files).toBe(before.knowledge_files);
    const versions = await versionsOf(t, alice, agentId);
    expect(names(versions.find((v) => v.number === 3)!.snapshot.files)).toEqual([
      'holidays.md',
      'parking.md',
    ]);

    const restored = await restore(agentId, 3);
    expect(restored.files_not_restored).toEqual([
      {
        id: parking.id,
        name: 'parking.md',
        media_type: 'text/markdown',
        size_bytes: PARKING.length,
        sha256: parking.sha256,
      },
    ]);
    expect(names(await filesOf(t, alice, agentId))).toEqual(['holidays.md']);
    expect(await answer(agentId, 'What do the files say about parking permits?')).toContain(
      'I found nothing',
    );
    const audit = await t.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'detail'])
      .where('object_id', '=', String(agentId))
      .where('action', 'in', ['knowledge.erase', 'agent.restore'])
      .orderBy('id')
      .execute();
    expect(audit.map((a) => [a.action, JSON.parse(a.detail)])).toEqual([
      ['knowledge.erase', { file_id: parking.id }],
      [
        'agent.restore',
        { version: 3, tools: 0, tools_dropped: 0, model_dropped: false, files: 1, files_not_restored: 1 },
      ],
    ]);

    // A deleted file can still be erased; an erased one is gone for every call.
    const holidays = (await filesOf(t, alice, agentId))[0]!;
    expect((await remove(agentId, holidays.id)).statusCode).toBe(204);
    expect((await remove(agentId, holidays.id, '?erase=true')).statusCode).toBe(204);
    expect((await remove(agentId, holidays.id, '?erase=true')).statusCode).toBe(404);
    expect((await remove(agentId, holidays.id, '?erase=yes')).statusCode).toBe(422);
  });

  it('reports a file a version listed before deleted files were kept as not restored', async () => {
    const agentId = await createAgent(t, alice, 'Old history');
    await addFile(t, alice, agentId, 'holidays.md', HOLIDAYS); // v2
    // A version saved by the release before: its snapshot lists its files itself, one since deleted.
    const gone = {
      id: crypto.randomUUID(),
      name: 'gone.pdf',
      media_type: 'application/pdf',
      size_bytes: 10,
      sha256: 'a'.repeat(64),
    };
    const row = await t.db.kysely
      .selectFrom('agent_versions')
      .select('snapshot')
      .where('agent_id', '=', agentId)
      .where('number', '=', 1)
      .executeTakeFirstOrThrow();
    await t.db.kysely
      .updateTable('agent_versions')
      .set({ snapshot: JSON.stringify({ ...JSON.parse(row.snapshot), files: [gone] }) })
      .where('agent_id', '=', agentId)
      .where('number', '=', 1)
      .execute();
    expect((await versionsOf(t, alice, agentId)).find((v) => v.number === 1)!.snapshot.files).toEqual([gone]);
    const restored = await restore(agentId, 1);
    expect(restored.files_not_restored).toEqual([gone]);
    expect(await filesOf(t, alice, agentId)).toEqual([]);
  });
});
