// store.server.ts: the example app's store: one database (see database.server.ts) and what is kept in it: the
// guestbook, the visitors' sessions and their notes.
//
//   const store = openStore(config);          // { databaseUrl, dataDir }: connects to nothing yet
//   await store.ready();                      // at start: rejects with StoreUnavailableError (one line)
//   await store.guestbook.addEntry(entry);    // in actions and API routes; listEntries/getEntry in loaders
//   await store.notes.add(name, text);        // a signed-in visitor's notes; list(name) in loaders
//   store.sessions                            // the SessionStore src/app/sessions.server.ts keeps sessions in
//   await store.close();                      // at shutdown, after the last request
// One store per process: it holds the connection pool (PostgreSQL) or the open file (SQLite).
import { openDatabase, type Database, type Dialect } from "./database.server.ts";
import type { SessionStore } from "brisk/server";
import { createGuestbook, guestbookSchema, type Guestbook } from "./guestbook.server.ts";
import { createNotes, notesSchema, type Notes } from "./notes.server.ts";
import { createSessionRecords, sessionsSchema } from "./sessions.server.ts";

export { StoreUnavailableError } from "./database.server.ts";

export interface Store {
  readonly guestbook: Guestbook;
  readonly sessions: SessionStore;
  readonly notes: Notes;
  /** Where the data lives, without a password: for the start-up log line. */
  readonly location: string;
  /** Resolves once the database is reachable and set up; see database.server.ts. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export function openStore(options: { readonly databaseUrl?: string; readonly dataDir: string }): Store {
  const schema = (dialect: Dialect) => [...guestbookSchema(dialect), ...sessionsSchema(dialect), ...notesSchema(dialect)];
  const db: Database = openDatabase({ ...options, schema });
  return {
    guestbook: createGuestbook(db),
    sessions: createSessionRecords(db),
    notes: createNotes(db),
    location: db.location,
    async ready() {
      await db.ready();
    },
    close: () => db.close(),
  };
}
