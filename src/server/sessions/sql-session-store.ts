// sql-session-store.ts: the SessionStore createSessionStorage asks for, over Bun.SQL on SQLite or PostgreSQL, owning
// its table: made at first use (or by setup() at start), rows past their expiry never read, and expired rows
// purged a bounded batch at a time, at most every purgeEvery seconds, started by a session's creation and never
// awaited by it.
//
//   export const sessions = createSessionStorage({ store: sqlSessionStore(db) });   // db: a SQL, or () => the SQL
//
// Times are the app's clock (Date.now()), the one createSessionStorage computes expiry from, so replicas and
// tests agree on them whatever the database's clock says.
import { SQL } from "bun";
import type { Logger } from "../../runtime/app-server.ts";
import type { SessionStore } from "./store-session.ts";
import { stdoutLogger } from "../monitoring/logger.ts";
import { sessionTable, type SessionRows } from "./session-table.ts";

export interface SqlSessionStoreOptions {
  /**
   * The store's own table: `sessions` unless given. Lower-case letters, digits and `_`, at most 53 characters
   * (its index's name, `<table>_by_expiry`, must fit PostgreSQL's 63); anything else is refused at once.
   */
  readonly table?: string;
  /** Seconds between two purges of expired rows by this process, at least: 600 unless given. */
  readonly purgeEvery?: number;
  /** Rows one purge deletes at most: 1000 unless given. A full batch makes the next creation purge again. */
  readonly purgeLimit?: number;
  /** Where a purge that deleted rows, or failed, is told: the server's log unless given. */
  readonly log?: Logger;
}

export interface SqlSessionStore extends SessionStore {
  /** Makes the table and its index where they are absent; first use does it too. Call it at start to fail there. */
  setup(): Promise<void>;
  /** Deletes up to `purgeLimit` expired rows, after a purge already running, resolving with how many. */
  purge(): Promise<number>;
}

const DEFAULT_PURGE_EVERY = 10 * 60;
const DEFAULT_PURGE_LIMIT = 1000;

/**
 * `sql` is the database, or a function that gives it (a storage made at module level, its database opened at the
 * server's start). Throws a TypeError for a table name or a purge option it cannot use; a SQL that is neither
 * SQLite nor PostgreSQL is refused at first use.
 */
export function sqlSessionStore(
  sql: SQL | (() => SQL | Promise<SQL>),
  options: SqlSessionStoreOptions = {},
): SqlSessionStore {
  const {
    table: name = "sessions",
    purgeEvery = DEFAULT_PURGE_EVERY,
    purgeLimit = DEFAULT_PURGE_LIMIT,
    log = stdoutLogger,
  } = options;
  if (!(Number.isFinite(purgeEvery) && purgeEvery > 0))
    throw new TypeError(`sqlSessionStore: purgeEvery must be a positive number of seconds, not ${purgeEvery}`);
  if (!(Number.isSafeInteger(purgeLimit) && purgeLimit > 0))
    throw new TypeError(`sqlSessionStore: purgeLimit must be a positive whole number of rows, not ${purgeLimit}`);
  const table = sessionTable(name);
  const database = sql instanceof SQL ? () => sql : sql;

  let setting: Promise<void> | undefined;
  const ready = async (): Promise<SessionRows> => {
    const handle = await database();
    // One set-up shared by every caller; after a failure the next caller tries again.
    setting ??= table.setup(handle).catch((error: unknown) => {
      setting = undefined;
      throw error;
    });
    await setting;
    return table.on(handle);
  };
  // ISO 8601 in UTC: compared as text on SQLite, as a timestamp on PostgreSQL.
  const now = () => new Date().toISOString();

  // One purge at a time in this process, each after the one before: their rows never overlap.
  let purging: Promise<unknown> = Promise.resolve();
  // Due at the first creation: a process starting clears what its predecessors left.
  let nextPurge = Number.NEGATIVE_INFINITY;
  const purgeNow = async () => {
    const deleted = await (await ready()).purge(now(), purgeLimit);
    // More may be waiting: the next creation purges again rather than after the pause.
    if (deleted === purgeLimit) nextPurge = Number.NEGATIVE_INFINITY;
    if (deleted > 0) log({ level: "info", msg: "expired sessions purged", table: name, deleted });
    return deleted;
  };
  const purge = () => {
    nextPurge = Date.now() + purgeEvery * 1000;
    const next = purging.then(purgeNow, purgeNow);
    purging = next;
    return next;
  };

  return {
    setup: async () => void (await ready()),
    purge,
    read: async (id) => (await ready()).read(id, now()),
    async create(id, data, expires) {
      await (await ready()).create(id, data, expires.toISOString());
      if (Date.now() < nextPurge) return;
      // Not awaited: the visitor signing in never waits for a purge, and one that failed is tried after the pause.
      purge().catch((error: unknown) =>
        log({ level: "error", msg: "expired sessions not purged", table: name, error: String(error) }),
      );
    },
    update: async (id, data) => (await ready()).update(id, data),
    delete: async (id) => (await ready()).delete(id),
  };
}
