// session-table.ts: the statements of sqlSessionStore's table on SQLite and PostgreSQL, its name checked once.
//
// The data is TEXT on both: the store never looks inside, and PostgreSQL's jsonb would refuse a "\u0000" a
// session's JSON may hold. Expiry is TIMESTAMPTZ on PostgreSQL, ISO 8601 text on SQLite (which has no time type;
// that text sorts as time does). No statement needs an upsert: ids are new at creation, and an update must never
// make a row (a sign-out elsewhere stays one).
import type { SQL } from "bun";

/** The table's statements on one database handle. */
export interface SessionRows {
  read(id: string, now: string): Promise<string | undefined>;
  create(id: string, data: string, expires: string): Promise<void>;
  update(id: string, data: string): Promise<void>;
  delete(id: string): Promise<void>;
  /** Deletes up to `limit` rows expired at `now`, the oldest first; resolves with how many. */
  purge(now: string, limit: number): Promise<number>;
}

export interface SessionTable {
  /** Makes the table and its index where they are absent. */
  setup(sql: SQL): Promise<void>;
  on(sql: SQL): SessionRows;
}

/** Lower case: PostgreSQL folds unquoted names, so a name written by hand in a query finds the same table. */
const PLAIN_NAME = /^[a-z_][a-z0-9_]{0,52}$/;

/** Throws a TypeError for a name that is not a plain identifier: it is written into statements, never bound. */
export function sessionTable(name: string): SessionTable {
  if (typeof name !== "string" || !PLAIN_NAME.test(name)) {
    throw new TypeError(
      `sqlSessionStore: the table name ${JSON.stringify(name)} is not a plain identifier (a-z, 0-9 and _, not starting with a digit, at most 53 characters)`,
    );
  }
  const index = `${name}_by_expiry`;
  return {
    async setup(sql) {
      const dialect = dialectOf(sql);
      if (dialect === "sqlite") {
        await sql`CREATE TABLE IF NOT EXISTS ${sql(name)} (id TEXT PRIMARY KEY, data TEXT NOT NULL, expires_at TEXT NOT NULL)`;
        await sql`CREATE INDEX IF NOT EXISTS ${sql(index)} ON ${sql(name)} (expires_at)`;
        return;
      }
      // Looked up first: CREATE INDEX takes a lock that holds back session writes even when the index is there.
      const [found] = await sql<Array<{ present: boolean }>>`SELECT to_regclass(${index}) IS NOT NULL AS present`;
      if (found?.present) return;
      await sql.begin(async (tx) => {
        // Replicas starting together: one makes the table, the others then find it (CREATE … IF NOT EXISTS
        // alone can fail on the catalog's unique index when two run at once).
        await tx`SELECT pg_advisory_xact_lock(hashtext(${`brisk sqlSessionStore ${name}`}))`;
        await tx`CREATE TABLE IF NOT EXISTS ${tx(name)} (id TEXT PRIMARY KEY, data TEXT NOT NULL, expires_at TIMESTAMPTZ NOT NULL)`;
        await tx`CREATE INDEX IF NOT EXISTS ${tx(index)} ON ${tx(name)} (expires_at)`;
      });
    },
    on: (sql) => ({
      async read(id, now) {
        const [row] = await sql<
          Array<{ data: string }>
        >`SELECT data FROM ${sql(name)} WHERE id = ${id} AND expires_at > ${now}`;
        return row?.data;
      },
      async create(id, data, expires) {
        await sql`INSERT INTO ${sql(name)} (id, data, expires_at) VALUES (${id}, ${data}, ${expires})`;
      },
      async update(id, data) {
        await sql`UPDATE ${sql(name)} SET data = ${data} WHERE id = ${id}`;
      },
      async delete(id) {
        await sql`DELETE FROM ${sql(name)} WHERE id = ${id}`;
      },
      async purge(now, limit) {
        const deleted =
          await sql`DELETE FROM ${sql(name)} WHERE id IN (SELECT id FROM ${sql(name)} WHERE expires_at <= ${now} ORDER BY expires_at LIMIT ${limit})`;
        return deleted.count;
      },
    }),
  };
}

/** The handle's database: the two the statements are written for, or a TypeError naming the other. */
function dialectOf(sql: SQL): "sqlite" | "postgres" {
  const adapter = sql.options.adapter;
  if (adapter === "sqlite" || adapter === "postgres") return adapter;
  throw new TypeError(`sqlSessionStore: ${adapter} is not supported; sessions are kept on SQLite or PostgreSQL`);
}
