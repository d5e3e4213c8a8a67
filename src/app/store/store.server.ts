// store.server.ts: the example app's store: one database (see database.server.ts) and the guestbook kept in it.
//
//   const store = openStore(config);          // { databaseUrl, dataDir }: connects to nothing yet
//   await store.ready();                      // at start: rejects with StoreUnavailableError (one line)
//   await store.guestbook.addEntry(entry);    // in actions and API routes; listEntries/getEntry in loaders
//   await store.close();                      // at shutdown, after the last request
// One store per process: it holds the connection pool (PostgreSQL) or the open file (SQLite).
import { openDatabase, type Database } from "./database.server.ts";
import { createGuestbook, guestbookSchema, type Guestbook } from "./guestbook.server.ts";

export { StoreUnavailableError } from "./database.server.ts";

export interface Store {
  readonly guestbook: Guestbook;
  /** Where the data lives, without a password: for the start-up log line. */
  readonly location: string;
  /** Resolves once the database is reachable and set up; see database.server.ts. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export function openStore(options: { readonly databaseUrl?: string; readonly dataDir: string }): Store {
  const db: Database = openDatabase({ ...options, schema: guestbookSchema });
  return {
    guestbook: createGuestbook(db),
    location: db.location,
    async ready() {
      await db.ready();
    },
    close: () => db.close(),
  };
}
