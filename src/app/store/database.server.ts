// database.server.ts: the example store's connection through Bun.SQL: SQLite under DATA_DIR by default, or DATABASE_URL.
//
// openDatabase({ databaseUrl, dataDir, schema }) connects to nothing yet. Then ready() resolves with the
// Bun.SQL handle once the database is reachable and `schema` (idempotent statements) has run, and rejects
// with a StoreUnavailableError, whose message is one line naming the database (never its password),
// when it is not. The server calls ready() at start to print that line; every query awaits it too, so a
// request made while the database is unreachable rejects (a 500 with a digest) and the first request
// after it comes back sets the schema up and goes on. close() ends the connections.
//
//   DATABASE_URL unset   SQLite file DATA_DIR/store.sqlite; the folder is made on first use
//   sqlite:… / file:…    that SQLite file, as Bun reads the URL; its folder must exist
//   postgres://…         PostgreSQL, a pool of connections; set-up holds an advisory lock so replicas
//                        starting together do not race to create the same table
// Set-up runs in one transaction (SQLite's BEGIN IMMEDIATE takes the write lock first, as PostgreSQL's
// advisory lock does), so processes starting together change the schema one after the other: a column an
// older version's table lacks (an AddColumn step) is added once, never twice.
// SQLite runs in WAL mode (readers never wait for the writer) with synchronous=NORMAL (WAL's usual
// pairing: a power cut may lose the last transactions, never the file) and waits up to 5 s for another
// process's write lock, so several processes on one host can share the file.
import { SQL } from "bun";
import { mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";

export type Dialect = "sqlite" | "postgres";

/** The database cannot be reached or set up; `message` is one line for the log. */
export class StoreUnavailableError extends Error {
  override name = "StoreUnavailableError";
}

/**
 * A column added to a table an older version made without it: `ALTER TABLE <table> ADD COLUMN <column>
 * <definition>` when the table lacks it, nothing when it has it (neither dialect can say that in one statement
 * SQLite takes).
 */
export interface AddColumn {
  readonly table: string;
  readonly addColumn: string;
  /** The column's type and constraints; a NOT NULL column needs a DEFAULT for the rows already there. */
  readonly definition: string;
}

/** One step of the schema: a statement that may run again (CREATE … IF NOT EXISTS), or a column to add. */
export type SchemaStep = string | AddColumn;

export interface DatabaseOptions {
  /** DATABASE_URL as parseConfig checked it; undefined: SQLite under dataDir. */
  readonly databaseUrl?: string;
  readonly dataDir: string;
  /** What the app needs, in order; every step may run again at every start. */
  readonly schema: (dialect: Dialect) => readonly SchemaStep[];
}

export interface Database {
  readonly dialect: Dialect;
  /** Where the data lives, without a password: for log lines. */
  readonly location: string;
  ready(): Promise<SQL>;
  close(): Promise<void>;
}

export const SQLITE_FILE = "store.sqlite";
/** Seconds: a database that does not answer a connection within this fails the request, not hangs it. */
const CONNECT_TIMEOUT_S = 5;
/** An arbitrary constant: the key of the advisory lock schema set-up holds on PostgreSQL. */
const SCHEMA_LOCK = 7_263_912_014;

export function openDatabase(options: DatabaseOptions): Database {
  const url = options.databaseUrl;
  const dialect: Dialect = url && /^postgres(ql)?:/i.test(url) ? "postgres" : "sqlite";
  const defaultFile = join(resolve(options.dataDir), SQLITE_FILE);
  const location = dialect === "postgres" ? withoutPassword(url!) : (url ?? `sqlite:${defaultFile}`);
  // PostgreSQL: one pool for the process's life; it reconnects by itself after the server comes back.
  // SQLite: Bun opens the file as the handle is made, so that waits until the folder exists, and a failed
  // attempt's handle is dropped for a new one on the next.
  let sql: SQL | undefined =
    dialect === "postgres" ? new SQL(url!, { connectionTimeout: CONNECT_TIMEOUT_S, idleTimeout: 60 }) : undefined;

  const setUp = async (attempt = 1): Promise<SQL> => {
    try {
      if (!sql) {
        if (!url) await mkdir(dirname(defaultFile), { recursive: true });
        sql = url ? new SQL(url) : new SQL({ adapter: "sqlite", filename: defaultFile });
        // The wait first: switching a new file to WAL takes a lock that another process starting may hold.
        await sql`PRAGMA busy_timeout = 5000`;
        await sql`PRAGMA journal_mode = WAL`;
        await sql`PRAGMA synchronous = NORMAL`;
      }
      const steps = options.schema(dialect);
      if (dialect === "postgres") {
        await sql.begin(async (tx) => {
          await tx.unsafe(`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK})`);
          for (const step of steps) await runStep(tx, dialect, step);
        });
      } else {
        // IMMEDIATE: the write lock before the first read, so a column check and its ALTER see no other
        // process's change in between (busy_timeout waits for that lock).
        await sql.begin("IMMEDIATE", async (tx) => {
          for (const step of steps) await runStep(tx, dialect, step);
        });
      }
      return sql;
    } catch (error) {
      if (dialect === "sqlite") {
        await sql?.close().catch(() => {});
        sql = undefined;
        // Processes starting together on a new file: switching it to WAL can answer SQLITE_BUSY at once,
        // without waiting out busy_timeout. A moment later the other process has finished; try again.
        if ((error as { code?: unknown }).code === "SQLITE_BUSY" && attempt < SQLITE_BUSY_ATTEMPTS) {
          await Bun.sleep(20 + Math.random() * 80);
          return setUp(attempt + 1);
        }
      }
      throw new StoreUnavailableError(`database unavailable: ${location} (${describe(error)})`, { cause: error });
    }
  };

  let setting: Promise<SQL> | undefined;
  return {
    dialect,
    location,
    ready() {
      // One set-up shared by every caller; after a failure the next caller tries again.
      setting ??= setUp().catch((error: unknown) => {
        setting = undefined;
        throw error;
      });
      return setting;
    },
    async close() {
      await sql?.close();
    },
  };
}

async function runStep(tx: SQL, dialect: Dialect, step: SchemaStep): Promise<void> {
  if (typeof step === "string") {
    await tx.unsafe(step);
    return;
  }
  const { table, addColumn, definition } = step;
  // Checked first rather than PostgreSQL's ADD COLUMN IF NOT EXISTS, which takes the table's exclusive lock
  // even when the column is there: a replica starting must not stall the others' queries.
  const found =
    dialect === "postgres"
      ? await tx`SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${table} AND column_name = ${addColumn}`
      : await tx`SELECT 1 FROM pragma_table_info(${table}) WHERE name = ${addColumn}`;
  if (found.length === 0) await tx.unsafe(`ALTER TABLE ${table} ADD COLUMN ${addColumn} ${definition}`);
}

function withoutPassword(url: string): string {
  const parsed = new URL(url);
  parsed.password = "";
  parsed.search = "";
  return parsed.href;
}

/** The error's code and first line: enough to tell "refused" from "no such database" in one log line. */
/** Set-up attempts on a SQLite file another process is setting up at the same moment. */
const SQLITE_BUSY_ATTEMPTS = 10;

function describe(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = (error instanceof Error ? error.message : String(error)).split("\n", 1)[0];
  return typeof code === "string" && !message?.includes(code) ? `${code}: ${message}` : String(message);
}
