// guestbook.server.ts: the guestbook's table and its four operations, the same on SQLite and PostgreSQL.
//
// createGuestbook(db) over an openDatabase() handle whose schema includes guestbookSchema:
//   addEntry({ name, message })  keeps a checked entry (validateEntry: trimmed, CRLF as "\n") and
//                                resolves with it as stored; an entry validateEntry refuses is a TypeError
//                                (the caller skipped validation: a bug, never stored).
//   listEntries({ limit })       the newest first (by id, which only grows), at most `limit` (50).
//   getEntry(id)                 the entry, or undefined for an id that is not stored (or not an id).
//   like(id)                     one more like, counted in the database (two at once are two); resolves
//                                with the entry as it now is, or undefined like getEntry.
// Every operation waits for db.ready(), so it rejects while the database is unreachable. Entries are
// plain JSON values (createdAt an ISO 8601 string), ready for loader data and the JSON API.
import type { Database, Dialect, SchemaStep } from "./database.server.ts";
import { validateEntry, type NewEntry } from "./entry.ts";

export interface Entry {
  readonly id: number;
  readonly name: string;
  readonly message: string;
  /** ISO 8601, UTC, millisecond precision. */
  readonly createdAt: string;
  readonly likes: number;
}

export interface Guestbook {
  addEntry(entry: NewEntry): Promise<Entry>;
  listEntries(options?: { limit?: number }): Promise<Entry[]>;
  getEntry(id: number): Promise<Entry | undefined>;
  like(id: number): Promise<Entry | undefined>;
  /** How many entries there are, and the most liked (the older on a tie; undefined while none has a like). */
  summary(): Promise<{ count: number; top: Entry | undefined }>;
}

/** Added after the first version: a table made by it gets the column at the next start. */
const LIKES: SchemaStep = { table: "guestbook_entries", addColumn: "likes", definition: "INTEGER NOT NULL DEFAULT 0" };

export function guestbookSchema(dialect: Dialect): SchemaStep[] {
  return dialect === "postgres"
    ? [
        `CREATE TABLE IF NOT EXISTS guestbook_entries (
          id INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          name TEXT NOT NULL,
          message TEXT NOT NULL,
          created_at TIMESTAMPTZ NOT NULL
        )`,
        LIKES,
      ]
    : [
        // AUTOINCREMENT: an id is never reused, even after the newest entry is deleted.
        `CREATE TABLE IF NOT EXISTS guestbook_entries (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          name TEXT NOT NULL,
          message TEXT NOT NULL,
          created_at TEXT NOT NULL
        )`,
        LIKES,
      ];
}

interface Row {
  id: number;
  name: string;
  message: string;
  /** TEXT on SQLite, a Date from TIMESTAMPTZ on PostgreSQL. */
  created_at: string | Date;
  likes: number;
}

const toEntry = (row: Row): Entry => ({
  id: Number(row.id),
  name: row.name,
  message: row.message,
  createdAt: new Date(row.created_at).toISOString(),
  likes: Number(row.likes),
});

const isId = (id: number) => Number.isSafeInteger(id) && id >= 1;

export function createGuestbook(db: Database): Guestbook {
  return {
    async addEntry(input) {
      const checked = validateEntry(input);
      if (!checked.ok)
        throw new TypeError(
          `guestbook: addEntry was given an invalid entry (${Object.values(checked.errors).join("; ")})`,
        );
      const { name, message } = checked.entry;
      const sql = await db.ready();
      const [row] = await sql<Row[]>`
        INSERT INTO guestbook_entries (name, message, created_at)
        VALUES (${name}, ${message}, ${new Date().toISOString()})
        RETURNING id, name, message, created_at, likes`;
      return toEntry(row!);
    },
    async listEntries({ limit = 50 } = {}) {
      const sql = await db.ready();
      const rows = await sql<Row[]>`
        SELECT id, name, message, created_at, likes FROM guestbook_entries ORDER BY id DESC LIMIT ${Math.max(0, Math.floor(limit))}`;
      return rows.map(toEntry);
    },
    async getEntry(id) {
      if (!isId(id)) return undefined;
      const sql = await db.ready();
      const [row] = await sql<
        Row[]
      >`SELECT id, name, message, created_at, likes FROM guestbook_entries WHERE id = ${id}`;
      return row ? toEntry(row) : undefined;
    },
    async like(id) {
      if (!isId(id)) return undefined;
      const sql = await db.ready();
      // One statement: the database adds the like, so likes at the same moment are all counted.
      const [row] = await sql<
        Row[]
      >`UPDATE guestbook_entries SET likes = likes + 1 WHERE id = ${id} RETURNING id, name, message, created_at, likes`;
      return row ? toEntry(row) : undefined;
    },
    async summary() {
      const sql = await db.ready();
      const [[counted], [top]] = await Promise.all([
        sql<Array<{ count: number | bigint | string }>>`SELECT count(*) AS count FROM guestbook_entries`,
        sql<Row[]>`
          SELECT id, name, message, created_at, likes FROM guestbook_entries
          WHERE likes > 0 ORDER BY likes DESC, id ASC LIMIT 1`,
      ]);
      return { count: Number(counted!.count), top: top ? toEntry(top) : undefined };
    },
  };
}
