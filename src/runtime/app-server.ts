// app-server.ts: the app's own server side as its definition names it: a start and a stop, and the
// configuration and log they are handed. Types only, declared here because the app definition is read on
// both sides; src/server makes the values (config.ts parses the environment into a Config).

/** How the process runs: development shows error messages and stacks; anything else is production. */
export type Mode = "production" | "development" | "test";

export interface WritesConfig {
  /** ACTION_MAX_BYTES: the most request body bytes an action or API route reads (then 413). */
  readonly actionMaxBytes: number;
  /** BODY_TIMEOUT_MS: how long the whole body of an action, API route or tunnel post may take to arrive (then 408). */
  readonly bodyTimeoutMs: number;
  /** COOKIE_SECRET, comma-separated for rotation: the first signs, all verify. Empty: one kept under dataDir. */
  readonly cookieSecrets: readonly string[];
  /** DATABASE_URL, sqlite:… or postgres://…; undefined: SQLite under dataDir. */
  readonly databaseUrl?: string;
  /** COOKIE_SECURE: cookies are `Secure` unless a call says otherwise; on in production unless set to false. */
  readonly cookieSecure: boolean;
}

export interface Config extends WritesConfig {
  readonly port: number;
  readonly host: string;
  readonly mode: Mode;
  /** Turns on Sentry on both sides and the tunnel. */
  readonly sentryDsn?: string;
  readonly sentryEnvironment: string;
  /** Undefined means "use the client build id", decided once the manifest is loaded. */
  readonly sentryRelease?: string;
  /** Only set when SENTRY_TRACES_SAMPLE_RATE is: tracing integrations stay unloaded otherwise. */
  readonly sentryTracesSampleRate?: number;
  /** Every DSN the tunnel may forward to: SENTRY_DSN first, then SENTRY_TUNNEL_DSNS. */
  readonly tunnelDsns: readonly string[];
  readonly monitoringMaxBytes: number;
  readonly monitoringTimeoutMs: number;
  readonly monitoringMaxInFlight: number;
  /** Trust X-Forwarded-For from a reverse proxy in front of us. Off: the socket address is the visitor. */
  readonly trustProxy: boolean;
  /** How long SIGTERM waits for in-flight requests before exiting anyway. */
  readonly shutdownTimeoutMs: number;
  /** Seconds of Strict-Transport-Security on every response; unset: none (the TLS proxy's job). */
  readonly hstsMaxAge?: number;
  /** SENTRY_SEND_DEFAULT_PII: let Sentry store visitors' IP addresses and user data. Off by default. */
  readonly sentrySendDefaultPii: boolean;
  /** DATA_DIR, absolute: what must outlive a restart (the SQLite store, a generated cookie secret, Sentry's outbox). */
  readonly dataDir: string;
  /** SENTRY_OUTBOX_MAX: envelopes kept on disk while Sentry cannot be reached; 0 keeps none. */
  readonly sentryOutboxMax: number;
  /** SENTRY_OUTBOX_MAX_BYTES: the bytes those envelopes may take on disk. */
  readonly sentryOutboxMaxBytes: number;
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
  start?(context: { config: Config; log: Logger }): Promise<void> | void;
  /** Runs once on shutdown, after the last request: close connections. */
  stop?(): Promise<void> | void;
}
