// sql-session-store.ts (test support): a SessionStore over Bun.SQL, on SQLite or PostgreSQL, as an app writes
// one; it returns what it holds, expired or not, so a test sees the framework refuse an old session itself.
import type { SQL } from "bun";
import type { SessionStore } from "brisk/server";

export interface SqlSessionStore extends SessionStore {
  /** Every record, for a test to look at. */
  records(): Promise<Array<{ id: string; data: string }>>;
}

export async function sqlSessionStore(sql: SQL): Promise<SqlSessionStore> {
  await sql`CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, data TEXT NOT NULL, expires BIGINT NOT NULL)`;
  return {
    async read(id) {
      const [row] = await sql<Array<{ data: string }>>`SELECT data FROM sessions WHERE id = ${id}`;
      return row?.data;
    },
    async create(id, data, expires) {
      await sql`INSERT INTO sessions (id, data, expires) VALUES (${id}, ${data}, ${expires.getTime()})`;
    },
    async update(id, data) {
      await sql`UPDATE sessions SET data = ${data} WHERE id = ${id}`;
    },
    async delete(id) {
      await sql`DELETE FROM sessions WHERE id = ${id}`;
    },
    records: () => sql<Array<{ id: string; data: string }>>`SELECT id, data FROM sessions ORDER BY id`,
  };
}
