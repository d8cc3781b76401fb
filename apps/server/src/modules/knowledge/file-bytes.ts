import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { ObjectStore } from './object-store.ts';

/** How long a bucket object written for an upload may wait for its commit before the sweep takes it. */
export const UNCLAIMED_OBJECT_GRACE_MS = 60 * 60 * 1000;
const SWEEP_BATCH = 100;

type Log = { warn(details: object, message: string): void };

/**
 * Where files' bytes live: the database (`knowledge_file_contents`, written in the file's own
 * transaction) unless a bucket is configured. A bucket object is written before the transaction,
 * so it is first recorded as due for deletion an hour later; the transaction that stores its file
 * takes that record back. Whatever removes a file's row (its agent or its user deleted) records
 * its object as due at once (a trigger, migration 0023), and `sweep` deletes what is due: nothing
 * in the bucket outlives its file, whichever way the file went, even across a crash.
 */
export function fileBytes(db: Db, store: ObjectStore | undefined, log: Log) {
  const k = db.kysely;
  const unavailable = (error: unknown) => {
    log.warn({ err: error instanceof Error ? error.message : String(error) }, 'knowledge bucket failed');
    return new HttpError(
      'unavailable',
      'The store of knowledge files (KNOWLEDGE_S3_BUCKET) is unavailable; try again.',
      {
        'retry-after': '5',
      },
    );
  };
  const dueNow = () => new Date().toISOString();

  async function sweep() {
    if (!store) return;
    try {
      for (;;) {
        const due = await k
          .selectFrom('knowledge_object_deletions')
          .select('object_key')
          .where('due_at', '<=', dueNow())
          .orderBy('due_at')
          .limit(SWEEP_BATCH)
          .execute();
        for (const { object_key } of due) {
          await store.delete(object_key);
          await k.deleteFrom('knowledge_object_deletions').where('object_key', '=', object_key).execute();
        }
        if (due.length < SWEEP_BATCH) return;
      }
    } catch (error) {
      // What is left stays due: the next sweep (after the next deletion, or the maintenance timer) retries.
      log.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'knowledge bucket sweep failed',
      );
    }
  }

  async function discard(keys: (string | null)[]) {
    const staged = keys.filter((key): key is string => key !== null);
    if (staged.length === 0) return;
    await k
      .updateTable('knowledge_object_deletions')
      .set({ due_at: dueNow() })
      .where('object_key', 'in', staged)
      .execute();
    await sweep();
  }

  return {
    /** Whether new files go to the bucket. */
    inBucket: store !== undefined,
    sweep,

    /** Before the file's transaction: its bytes in the bucket, under a key that is not a name (E1). */
    async stage(file: { id: string; media_type: string; bytes: Uint8Array }): Promise<string | null> {
      if (!store) return null;
      const key = `knowledge/${file.id}`;
      const later = new Date(Date.now() + UNCLAIMED_OBJECT_GRACE_MS).toISOString();
      await k.insertInto('knowledge_object_deletions').values({ object_key: key, due_at: later }).execute();
      try {
        await store.put(key, file.bytes, file.media_type);
      } catch (error) {
        // A put that failed may still have written something: it is due for deletion at once.
        await discard([key]);
        throw unavailable(error);
      }
      return key;
    },

    /** In the file's transaction: its bytes in the database, or its bucket object claimed. */
    async commit(trx: Kysely<Database>, fileId: string, bytes: Uint8Array, key: string | null) {
      if (key) await trx.deleteFrom('knowledge_object_deletions').where('object_key', '=', key).execute();
      else
        await trx
          .insertInto('knowledge_file_contents')
          .values({ file_id: fileId, content: Buffer.from(bytes) })
          .execute();
    },

    /** After a transaction that did not commit: the objects it would have claimed go now. */
    discard,

    async read(fileId: string, key: string | null): Promise<Uint8Array | undefined> {
      if (key === null) {
        const row = await k
          .selectFrom('knowledge_file_contents')
          .select('content')
          .where('file_id', '=', fileId)
          .executeTakeFirst();
        return row && new Uint8Array(row.content);
      }
      if (!store) throw unavailable(new Error('a file is in the bucket but KNOWLEDGE_S3_BUCKET is not set'));
      try {
        return await store.get(key);
      } catch (error) {
        throw unavailable(error);
      }
    },

    /** In the erasing transaction: the bytes go (a bucket object at the sweep after the commit). */
    async erase(trx: Kysely<Database>, fileId: string, key: string | null) {
      await trx.deleteFrom('knowledge_file_contents').where('file_id', '=', fileId).execute();
      if (key)
        await trx
          .insertInto('knowledge_object_deletions')
          .values({ object_key: key, due_at: dueNow() })
          .onConflict((oc) => oc.column('object_key').doUpdateSet({ due_at: dueNow() }))
          .execute();
    },
  };
}

export type FileBytes = ReturnType<typeof fileBytes>;
