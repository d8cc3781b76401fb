import { EventEmitter } from 'node:events';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import { loadPg } from './pg-driver.ts';
import type { Database } from './schema.ts';

/**
 * Cross-instance signals ("run 42 was asked to stop", "host call 7 has its result"): PostgreSQL
 * LISTEN/NOTIFY when there are several instances, an in-process emitter on SQLite (one instance).
 * A signal is a hint to look at the database now, not the data itself: a notification sent while a
 * listener was reconnecting is lost, so whoever waits also re-reads the database on a slow timer.
 */
export interface Signals {
  /**
   * Delivers `payload` (an id; under 8,000 bytes) to the listeners of `channel` on every instance.
   * Sent `within` a transaction, PostgreSQL delivers it when that commits (never if it rolls back),
   * so no listener acts before the change it announces is visible.
   */
  publish(channel: SignalChannel, payload: string, within?: Kysely<Database>): Promise<void>;
  /** Returns the function that stops listening. */
  subscribe(channel: SignalChannel, listener: (payload: string) => void): () => void;
  close(): Promise<void>;
}

/** Every channel Cadre uses, so a typo cannot listen to a channel nobody notifies. */
export type SignalChannel =
  | 'cadre_run_stop'
  | 'cadre_run_watch'
  | 'cadre_run_chunks'
  | 'cadre_host_call_result'
  | 'cadre_api_key_revoked'
  | 'cadre_user_disabled';

export function inProcessSignals(): Signals {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(channel, payload) {
      // Delivered after the publisher's own work, as a notification committed elsewhere would be.
      queueMicrotask(() => emitter.emit(channel, payload));
    },
    subscribe(channel, listener) {
      emitter.on(channel, listener);
      return () => void emitter.off(channel, listener);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

/** Time between attempts to restore a lost LISTEN connection. */
const RECONNECT_DELAY_MS = 500;

/**
 * One dedicated connection (outside the pool) LISTENs on every channel that has listeners; it is
 * opened on the first subscription and re-opened, with its LISTENs, whenever it drops.
 */
export function postgresSignals(
  connectionString: string,
  publishQuery: (channel: string, payload: string, within?: Kysely<Database>) => Promise<void>,
  onError: (err: Error) => void,
): Signals {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const channels = new Set<SignalChannel>();
  let client: pg.Client | undefined;
  let listening = new Set<SignalChannel>();
  let connecting: Promise<void> | undefined;
  let closed = false;

  /** LISTENs on every channel with listeners that this connection does not listen to yet. */
  const listenAll = async (connection: pg.Client, done: Set<SignalChannel>) => {
    for (const channel of channels) {
      if (done.has(channel)) continue;
      done.add(channel);
      await connection.query(`listen ${channel}`);
    }
  };

  const connect = (): Promise<void> => {
    connecting ??= (async () => {
      const next = new (loadPg().Client)({
        connectionString,
        application_name: 'cadre-signals',
        keepAlive: true,
      });
      next.on('notification', (message) => {
        if (message.payload !== undefined) emitter.emit(message.channel, message.payload);
      });
      const lost = (err?: Error) => {
        if (client !== next) return;
        client = undefined;
        if (err) onError(err);
        if (!closed) setTimeout(() => void connect().catch(onError), RECONNECT_DELAY_MS).unref();
      };
      next.on('error', lost);
      next.on('end', () => lost());
      try {
        await next.connect();
        const done = new Set<SignalChannel>();
        await listenAll(next, done);
        client = next;
        listening = done;
        // Channels subscribed while this connection was opening.
        await listenAll(next, done);
      } catch (err) {
        void next.end().catch(() => {});
        if (!closed) setTimeout(() => void connect().catch(onError), RECONNECT_DELAY_MS).unref();
        throw err;
      }
    })().finally(() => {
      connecting = undefined;
    });
    return connecting;
  };

  return {
    publish: (channel, payload, within) => publishQuery(channel, payload, within),
    subscribe(channel, listener) {
      emitter.on(channel, listener);
      if (!channels.has(channel)) {
        channels.add(channel);
        if (client) void listenAll(client, listening).catch(onError);
        else void connect().catch(onError);
      }
      return () => void emitter.off(channel, listener);
    },
    async close() {
      closed = true;
      emitter.removeAllListeners();
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
