// store.server.ts: the guestbook in SQLite through Bun.SQL: DATA_DIR/store.sqlite, WAL mode with
// synchronous=NORMAL, one table. Brisk's action and the reference's hand-written post insert with the same
// statement; bench/lib/guestbook.ts counts the rows in the same file. SQLite only: the bench has no PostgreSQL.
import { SQL } from "bun";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { NewEntry } from "./entry.ts";

/** The file under DATA_DIR, and its table: what bench/lib/guestbook.ts reads. */
export const storeFile = (dataDir: string) => join(dataDir, "store.sqlite");
export const ENTRIES_TABLE = "guestbook_entries";

export interface Entry {
  id: number;
  name: string;
  message: string;
  createdAt: string;
}

export interface GuestbookStore {
  add(entry: NewEntry): Promise<void>;
  newest(limit: number): Promise<Entry[]>;
  close(): Promise<void>;
}

export async function openGuestbook(dataDir: string): Promise<GuestbookStore> {
  await mkdir(dataDir, { recursive: true });
  const sql = new SQL({ adapter: "sqlite", filename: storeFile(dataDir) });
  await sql`PRAGMA journal_mode = WAL`;
  await sql`PRAGMA synchronous = NORMAL`;
  // Several processes may share the file (a binary restarted on the same DATA_DIR).
  await sql`PRAGMA busy_timeout = 5000`;
  await sql.unsafe(`CREATE TABLE IF NOT EXISTS ${ENTRIES_TABLE} (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    message TEXT NOT NULL,
    created_at TEXT NOT NULL
  )`);
  return {
    async add({ name, message }) {
      await sql`INSERT INTO guestbook_entries (name, message, created_at) VALUES (${name}, ${message}, ${new Date().toISOString()}) RETURNING id`;
    },
    async newest(limit) {
      const rows = await sql<Array<{ id: number; name: string; message: string; created_at: string }>>`
        SELECT id, name, message, created_at FROM guestbook_entries ORDER BY id DESC LIMIT ${limit}`;
      return rows.map((r) => ({ id: r.id, name: r.name, message: r.message, createdAt: r.created_at }));
    },
    close: () => sql.close(),
  };
}
