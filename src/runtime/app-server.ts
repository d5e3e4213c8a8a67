// app-server.ts: the app's own server side as its definition names it: a start and a stop, and the
// configuration and log they are handed. Types only, declared here because the app definition is read on
// both sides; src/server makes the values (config.ts parses the environment, app-start.ts hands the app its part).

/** How the process runs: development shows error messages and stacks; anything else is production. */
export type Mode = "production" | "development" | "test";

/**
 * What the app's server side is handed at its start: how the process runs and where its data lives, never the
 * operator's secrets or the server's own limits. An app setting of its own is the app's to read from the
 * environment.
 */
export interface AppConfig {
  readonly mode: Mode;
  /** DATA_DIR, absolute: where what must outlive a restart is kept (a SQLite file, say). */
  readonly dataDir: string;
  /** DATABASE_URL, sqlite:… or postgres://…; undefined: SQLite under dataDir is the app's to choose. */
  readonly databaseUrl?: string;
}

export type LogRecord = Record<string, unknown> & { level: "info" | "warn" | "error"; msg: string };

/** Writes one JSON line (the server's request lines go to the same place). */
export type Logger = (record: LogRecord) => void;

export interface AppServer {
  /**
   * Runs once before the server listens (and before a test serves the app): open a database, set up its
   * schema. A rejection stops start-up; its message is printed as one line. A resource that may come back
   * later (a database being restarted) should rather log one line and let requests fail until it does.
   * `bun run build` runs it too, but only when the app has prerendered routes (their loaders may need it).
   */
  start?(context: { config: AppConfig; log: Logger }): Promise<void> | void;
  /** Runs once on shutdown, after the last request: close connections. */
  stop?(): Promise<void> | void;
}
