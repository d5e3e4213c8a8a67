// config.ts: turns the environment into a validated, typed, frozen configuration.
import { resolve } from "node:path";
import { dsnToString, makeDsn } from "@sentry/core";
import type { Mode } from "../../runtime/app-server.ts";

export type { Mode } from "../../runtime/app-server.ts";

export interface WritesConfig {
  /** ACTION_MAX_BYTES: the most request body bytes an action or API route reads (then 413). */
  readonly actionMaxBytes: number;
  /** BODY_TIMEOUT_MS: how long the whole body of an action, API route or tunnel post may take to arrive (then 408). */
  readonly bodyTimeoutMs: number;
  /** BODY_MIN_RATE: bytes a second such a body must average from bodyRateGraceMs on (then 408); 0: none. */
  readonly bodyMinRate: number;
  /** BODY_RATE_GRACE_MS: how long a body may take before its rate counts. */
  readonly bodyRateGraceMs: number;
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
  /** RENDER_MAX_IN_FLIGHT: pages rendered at once, from their first step to their last streamed byte (then 503); a visitor an eighth. */
  readonly renderMaxInFlight: number;
  /**
   * RENDER_CACHE_MAX_BYTES: the memory the kept answers of routes marked `cache` may take, the least recently used
   * dropped first; 0 keeps none.
   */
  readonly renderCacheMaxBytes: number;
  /** TRUST_PROXY: behind a reverse proxy, trust its X-Forwarded-* headers. Off: the socket address is the visitor. */
  readonly trustProxy: boolean;
  /** TRUST_PROXY's count of proxies that append to X-Forwarded-For (0 when it is off; `true` is 1). */
  readonly proxyHops: number;
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

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${raw}`);
  return value;
}

/**
 * A DSN as Sentry issues it: scheme, public key (and the secret of an old DSN), host, port, the path prefix
 * of a self-hosted Sentry, a numeric project, and nothing after it. @sentry/core's own pattern is looser: it
 * takes a space, a tab or a query (`https://key@host/1?x=@evil/2`) into the path, where every envelope would
 * be lost, and prints a console line of its own for what it cannot read (`https://key@host/`).
 */
const DSN = /^https?:\/\/\w+(?::\w+)?@(?:\[[\da-fA-F:.]+\]|[\w.-]+)(?::\d{1,5})?\/(?:[\w.-]+\/)*\d+$/;

function dsn(name: string, raw: string): string {
  // Then the same check the SDKs and the tunnel apply, so a DSN that passes here is one they accept.
  const parsed = DSN.test(raw) ? makeDsn(raw) : undefined;
  if (!parsed) {
    throw new ConfigError(name, `not a valid Sentry DSN ("${raw}"); expected https://<key>@<host>/<project>`);
  }
  return raw;
}

/** The DSN as a browser may see it: the public key without the secret some old DSNs still carry. */
export function publicDsn(dsn: string): string {
  return dsnToString(makeDsn(dsn)!);
}

function boolean(env: Env, name: string): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "" || raw === "0" || raw === "false") return false;
  if (raw === "1" || raw === "true") return true;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}

function directory(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim() || fallback;
  // A NUL byte cannot be in a path: every file call would fail later, far from the cause.
  if (raw.includes("\0")) throw new ConfigError(name, "must be a folder path, got a value with a NUL byte");
  return resolve(raw);
}

/** The monitoring-data block: personal data policy and the on-disk outbox. */
function monitoringData(env: Env) {
  return {
    sentrySendDefaultPii: boolean(env, "SENTRY_SEND_DEFAULT_PII"),
    dataDir: directory(env, "DATA_DIR", "./data"),
    sentryOutboxMax: integer(env, "SENTRY_OUTBOX_MAX", 1000, 0, 100_000),
    sentryOutboxMaxBytes: integer(env, "SENTRY_OUTBOX_MAX_BYTES", 32 * 1_048_576, 0, 1024 * 1_048_576),
  };
}

/**
 * TRUST_PROXY: how many reverse proxies in front of this server append the address they saw to
 * X-Forwarded-For; `true` is one, `false` (or 0) none. Each proxy needs to be one the visitor cannot go around.
 */
function proxy(env: Env): { trustProxy: boolean; proxyHops: number } {
  const raw = env.TRUST_PROXY?.trim().toLowerCase();
  let hops: number;
  if (raw === "true") hops = 1;
  else if (raw === "false") hops = 0;
  else if (raw && !/^\d+$/.test(raw))
    throw new ConfigError("TRUST_PROXY", `expected true, false or a number of proxies, got "${raw}"`);
  else hops = integer(env, "TRUST_PROXY", 0, 0, 10);
  return { trustProxy: hops > 0, proxyHops: hops };
}

function mode(raw: string | undefined): Mode {
  // An unknown mode is treated as production: it never leaks messages or stacks.
  if (raw === "development" || raw === "test") return raw;
  return "production";
}

export function parseConfig(env: Env): Config {
  const sentryDsn = env.SENTRY_DSN?.trim() ? dsn("SENTRY_DSN", env.SENTRY_DSN.trim()) : undefined;
  const extra = (env.SENTRY_TUNNEL_DSNS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => dsn("SENTRY_TUNNEL_DSNS", s));
  const rate = env.SENTRY_TRACES_SAMPLE_RATE?.trim();
  let sentryTracesSampleRate: number | undefined;
  if (rate) {
    sentryTracesSampleRate = Number(rate);
    if (!(sentryTracesSampleRate >= 0 && sentryTracesSampleRate <= 1)) {
      throw new ConfigError("SENTRY_TRACES_SAMPLE_RATE", `expected a number from 0 to 1, got "${rate}"`);
    }
  }
  const m = mode(env.NODE_ENV);
  return Object.freeze({
    ...writesConfig(env, m),
    port: integer(env, "PORT", 3000, 0, 65535),
    // Development pages show stacks and file paths: only this machine reaches them unless HOST says otherwise.
    host: env.HOST?.trim() || (m === "development" ? "127.0.0.1" : "0.0.0.0"),
    mode: m,
    sentryDsn,
    sentryEnvironment: env.SENTRY_ENVIRONMENT?.trim() || m,
    sentryRelease: env.SENTRY_RELEASE?.trim() || undefined,
    sentryTracesSampleRate,
    tunnelDsns: Object.freeze([...(sentryDsn ? [sentryDsn] : []), ...extra]),
    monitoringMaxBytes: integer(env, "MONITORING_MAX_BYTES", 1_048_576, 1024, 64 * 1_048_576),
    monitoringTimeoutMs: integer(env, "MONITORING_TIMEOUT_MS", 5_000, 100, 60_000),
    monitoringMaxInFlight: integer(env, "MONITORING_MAX_IN_FLIGHT", 64, 1, 10_000),
    // A page takes milliseconds, so this many at once is a flood or pages whose streamed values are slow: each
    // render held until it ends costs tens of KB (React's state, the loaders' promises), so 256 stay within a
    // small container's memory, and a visitor's 32 outnumber any browser's connections to a host.
    renderMaxInFlight: integer(env, "RENDER_MAX_IN_FLIGHT", 256, 8, 100_000),
    // A few hundred pages of tens of KB in both codings: a small container's share, whatever URLs visitors make up.
    renderCacheMaxBytes: integer(env, "RENDER_CACHE_MAX_BYTES", 32 * 1_048_576, 0, 16 * 1024 * 1_048_576),
    ...proxy(env),
    shutdownTimeoutMs: integer(env, "SHUTDOWN_TIMEOUT_MS", 10_000, 0, 300_000),
    hstsMaxAge: env.HSTS_MAX_AGE?.trim() ? integer(env, "HSTS_MAX_AGE", 0, 0, 63_072_000) : undefined,
    ...monitoringData(env),
  });
}

// --- Writes: request bodies of actions and API routes, cookies, the example store. ---

/** HMAC-SHA256 keys shorter than its 32-byte output would be the weakest part of a signed cookie. */
export const MIN_COOKIE_SECRET_BYTES = 32;

function writesConfig(env: Env, m: Mode): WritesConfig {
  return {
    // Bodies are held in memory whole, so the ceiling stays far below a server's RAM.
    actionMaxBytes: integer(env, "ACTION_MAX_BYTES", 1_048_576, 1024, 256 * 1_048_576),
    // A slot is held while its body arrives, as long as it keeps up BODY_MIN_RATE: the deadline only caps
    // a slow upload that does. A megabyte takes 33 s at 256 kbit/s, a phone on a poor signal.
    bodyTimeoutMs: integer(env, "BODY_TIMEOUT_MS", 60_000, 100, 300_000),
    // A quarter of that phone's rate, on average since the body began, from the end of the grace on, so
    // an upload that pauses for a while still passes; a stalled one is cut then. Holding every slot at
    // this rate takes a client 64 × 4 KiB/s of upload, where stalling them takes nothing.
    bodyMinRate: integer(env, "BODY_MIN_RATE", 4096, 0, 1_048_576),
    // Long enough for a phone's first round trips (the body's first bytes leave with the headers).
    bodyRateGraceMs: integer(env, "BODY_RATE_GRACE_MS", 2_000, 100, 60_000),
    cookieSecrets: Object.freeze(cookieSecrets(env.COOKIE_SECRET)),
    databaseUrl: databaseUrl(env.DATABASE_URL?.trim()),
    // Off for a staging host reached over plain HTTP, where browsers drop a Secure cookie without a word.
    cookieSecure: env.COOKIE_SECURE?.trim() ? boolean(env, "COOKIE_SECURE") : m === "production",
  };
}

function cookieSecrets(raw: string | undefined): string[] {
  if (!raw?.trim()) return [];
  const secrets = raw.split(",").map((s) => s.trim());
  for (const [i, secret] of secrets.entries()) {
    const bytes = Buffer.byteLength(secret);
    // The message names the position and length, never the secret itself.
    if (bytes < MIN_COOKIE_SECRET_BYTES) {
      const which = secrets.length === 1 ? "the secret" : `secret ${i + 1} of ${secrets.length}`;
      throw new ConfigError(
        "COOKIE_SECRET",
        `${which} is ${bytes} bytes; each must be at least ${MIN_COOKIE_SECRET_BYTES} (make one with: openssl rand -base64 32)`,
      );
    }
  }
  return secrets;
}

function databaseUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw)?.[1]?.toLowerCase();
  // Bun reads sqlite: and file: forms (sqlite://:memory:, sqlite://./x.db) that URL does not, so only the
  // scheme is checked there; a PostgreSQL URL must parse. The value itself may hold a password: never echoed.
  if (scheme === "sqlite" || scheme === "file") return raw;
  if (scheme === "postgres" || scheme === "postgresql") {
    if (URL.parse(raw)) return raw;
    throw new ConfigError(
      "DATABASE_URL",
      `not a valid ${scheme}:// URL; expected postgres://user:password@host:5432/database`,
    );
  }
  throw new ConfigError(
    "DATABASE_URL",
    `expected sqlite://… or postgres://…, got ${scheme ? `a ${scheme}: URL` : "no URL scheme"}`,
  );
}
