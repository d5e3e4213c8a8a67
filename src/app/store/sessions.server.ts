// sessions.server.ts: the example's sessions kept in its database, the SessionStore brisk/server's
// createSessionStorage asks for (src/app/sessions.server.ts), the same on SQLite and PostgreSQL.
//
// createSessionRecords(db) over an openDatabase() handle whose schema includes sessionsSchema:
//   read(id)                    the data, or undefined for an id never stored, deleted, or expired
//   create(id, data, expires)   a new record; at most every PURGE_EVERY_MS the same call deletes expired ones
//   update(id, data)            new data for a record that is still there; none is made (a sign-out elsewhere
//                               stays signed out)
//   delete(id)                  the record gone (sign-out): a copy of the cookie is refused on every replica
// Times are the app's clock (Date.now()), not the database's, so replicas and tests agree on them.
import type { SessionStore } from "brisk/server";
import type { Database, Dialect, SchemaStep } from "./database.server.ts";

/** How often a process deletes expired sessions, at a sign-in: the table holds live sessions and few others. */
export const PURGE_EVERY_MS = 10 * 60 * 1000;

export function sessionsSchema(dialect: Dialect): SchemaStep[] {
  return [
    `CREATE TABLE IF NOT EXISTS sessions (
      id TEXT PRIMARY KEY,
      data TEXT NOT NULL,
      expires_at ${dialect === "postgres" ? "TIMESTAMPTZ" : "TEXT"} NOT NULL
    )`,
    "CREATE INDEX IF NOT EXISTS sessions_by_expiry ON sessions (expires_at)",
  ];
}

export function createSessionRecords(db: Database): SessionStore {
  let purged = Number.NEGATIVE_INFINITY;
  // ISO 8601 in UTC: compared as text on SQLite, as a timestamp on PostgreSQL.
  const now = () => new Date().toISOString();
  return {
    async read(id) {
      const sql = await db.ready();
      const [row] = await sql<Array<{ data: string }>>`SELECT data FROM sessions WHERE id = ${id} AND expires_at > ${now()}`;
      return row?.data;
    },
    async create(id, data, expires) {
      const sql = await db.ready();
      if (Date.now() - purged >= PURGE_EVERY_MS) {
        purged = Date.now();
        await sql`DELETE FROM sessions WHERE expires_at <= ${now()}`;
      }
      await sql`INSERT INTO sessions (id, data, expires_at) VALUES (${id}, ${data}, ${expires.toISOString()})`;
    },
    async update(id, data) {
      const sql = await db.ready();
      await sql`UPDATE sessions SET data = ${data} WHERE id = ${id}`;
    },
    async delete(id) {
      const sql = await db.ready();
      await sql`DELETE FROM sessions WHERE id = ${id}`;
    },
  };
}
