// store.server.ts: the example app's store: one database (see database.server.ts) and what is kept in it: the
// guestbook, the visitors' sessions and their notes.
//
//   const store = openStore(config);          // { databaseUrl, dataDir }: connects to nothing yet
//   await store.ready();                      // at start: rejects with StoreUnavailableError (one line)
//   await store.guestbook.addEntry(entry);    // in actions and API routes; listEntries/getEntry in loaders
//   await store.notes.add(name, text);        // a signed-in visitor's notes; list(name) in loaders
//   store.sessions                            // brisk/server's sqlSessionStore: src/app/sessions.server.ts keeps
//                                             // sessions in it; its table is its own, made at start
//   await store.close();                      // at shutdown, after the last request
// One store per process: it holds the connection pool (PostgreSQL) or the open file (SQLite).
import { openDatabase, type Database, type Dialect } from "./database.server.ts";
import { sqlSessionStore, type SqlSessionStore } from "brisk/server";
import { createGuestbook, guestbookSchema, type Guestbook } from "./guestbook.server.ts";
import { createNotes, notesSchema, type Notes } from "./notes.server.ts";

export { StoreUnavailableError } from "./database.server.ts";

export interface Store {
  readonly guestbook: Guestbook;
  readonly sessions: SqlSessionStore;
  readonly notes: Notes;
  /** Where the data lives, without a password: for the start-up log line. */
  readonly location: string;
  /** Resolves once the database is reachable and set up; see database.server.ts. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export function openStore(options: { readonly databaseUrl?: string; readonly dataDir: string }): Store {
  const schema = (dialect: Dialect) => [...guestbookSchema(dialect), ...notesSchema(dialect)];
  const db: Database = openDatabase({ ...options, schema });
  const sessions = sqlSessionStore(() => db.ready());
  return {
    guestbook: createGuestbook(db),
    sessions,
    notes: createNotes(db),
    location: db.location,
    async ready() {
      await db.ready();
      await sessions.setup();
    },
    close: () => db.close(),
  };
}
