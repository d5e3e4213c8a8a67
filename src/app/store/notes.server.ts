// notes.server.ts: the notes a signed-in visitor keeps, by name: their table and two operations, the same on SQLite and PostgreSQL.
//
// createNotes(db) over an openDatabase() handle whose schema includes notesSchema:
//   add(name, text)   keeps a checked note (validateNote: trimmed, CRLF as "\n") for `name` and resolves with
//                     it as stored; text validateNote refuses, or no name, is a TypeError (a bug, never stored).
//   list(name)        that name's notes, newest first (by id, which only grows), at most `limit` (50).
// Every operation waits for db.ready(), so it rejects while the database is unreachable. Notes are plain JSON
// values (createdAt an ISO 8601 string), ready for loader data.
import type { Database, Dialect, SchemaStep } from "./database.server.ts";
import { validateNote } from "./note.ts";

export interface Note {
  readonly id: number;
  readonly text: string;
  /** ISO 8601, UTC, millisecond precision. */
  readonly createdAt: string;
}

export interface Notes {
  add(name: string, text: string): Promise<Note>;
  list(name: string, options?: { limit?: number }): Promise<Note[]>;
}

export function notesSchema(dialect: Dialect): SchemaStep[] {
  return [
    dialect === "postgres"
      ? `CREATE TABLE IF NOT EXISTS notes (
          id INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          name TEXT NOT NULL,
          text TEXT NOT NULL,
          created_at TIMESTAMPTZ NOT NULL
        )`
      : `CREATE TABLE IF NOT EXISTS notes (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          name TEXT NOT NULL,
          text TEXT NOT NULL,
          created_at TEXT NOT NULL
        )`,
    // A visitor's notes, newest first, without reading anyone else's.
    "CREATE INDEX IF NOT EXISTS notes_by_name ON notes (name, id)",
  ];
}

interface Row {
  id: number;
  text: string;
  /** TEXT on SQLite, a Date from TIMESTAMPTZ on PostgreSQL. */
  created_at: string | Date;
}

const toNote = (row: Row): Note => ({
  id: Number(row.id),
  text: row.text,
  createdAt: new Date(row.created_at).toISOString(),
});

export function createNotes(db: Database): Notes {
  return {
    async add(name, text) {
      const checked = validateNote(text);
      if (!checked.ok) throw new TypeError(`notes: add was given an invalid note (${checked.error})`);
      if (typeof name !== "string" || name === "") throw new TypeError("notes: add needs the signed-in visitor's name");
      const sql = await db.ready();
      const [row] = await sql<Row[]>`
        INSERT INTO notes (name, text, created_at) VALUES (${name}, ${checked.text}, ${new Date().toISOString()})
        RETURNING id, text, created_at`;
      return toNote(row!);
    },
    async list(name, { limit = 50 } = {}) {
      const sql = await db.ready();
      const rows = await sql<Row[]>`
        SELECT id, text, created_at FROM notes WHERE name = ${name} ORDER BY id DESC LIMIT ${Math.max(0, Math.floor(limit))}`;
      return rows.map(toNote);
    },
  };
}
