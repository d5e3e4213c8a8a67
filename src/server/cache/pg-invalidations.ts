// pg-invalidations.ts: carries render-cache invalidations (revalidateTag, revalidatePath) to every other instance
// sharing one PostgreSQL database.
//
// An invalidation is a row of brisk_cache_invalidations and a NOTIFY on brisk_cache, made by one statement, so the
// notification goes out as the row commits. Every instance LISTENs and applies what the others sent (its own it
// applied before publishing). A notification can be missed, so nothing rests on it alone:
// - a poll every pollMs reads the ids of the rows written since the last poll, with a margin (a row's time is its
//   transaction's start, and bigserial ids commit out of order), and applies the rows no notification brought;
// - where neither can vouch for a gap, the whole cache is cleared (an answer rendered afresh costs less than a
//   stale one): when Bun has re-established the LISTEN connection (it reconnects by itself, with a backoff of up
//   to 32 s, the poll covering meanwhile), and at the first poll that succeeds after failed ones.
// A database down at start does not stop the server: the bus is returned after one attempt, logs one warning and
// keeps trying on the poll's beat; publish rejects meanwhile (the caller logs it: the write itself happened).
// Any instance deletes the rows older than KEEP_MINUTES now and then: nothing reads that far back.
import { SQL } from "bun";
import type { Logger } from "../monitoring/logger.ts";
import type { Invalidation, InvalidationBus, RenderCacheControl } from "./invalidation.ts";
import { parsePayload, parseRow, payloadTail, toRow } from "./invalidation-message.ts";

export interface PgInvalidationsOptions {
  /** postgres://… (DATABASE_URL); this bus opens connections of its own. */
  readonly url: string;
  readonly cache: RenderCacheControl;
  readonly log: Logger;
  /** Milliseconds between two polls, and between two attempts while the database is unreachable. */
  readonly pollMs?: number;
}

const CHANNEL = "brisk_cache";
/** An arbitrary constant: the advisory lock set-up holds, so that replicas starting together do not race. */
const SCHEMA_LOCK = 7_263_912_039;
const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS brisk_cache_invalidations (id bigserial PRIMARY KEY, origin text NOT NULL,
     kind text NOT NULL, names text NOT NULL, at timestamptz NOT NULL DEFAULT now())`,
  "CREATE INDEX IF NOT EXISTS brisk_cache_invalidations_at ON brisk_cache_invalidations (at)",
];
/** How far a poll reads back before the previous one: longer than a publishing statement can take to commit. */
const MARGIN = "10 seconds";
const KEEP_MINUTES = 10;
const PRUNE_EVERY_MS = 60_000;
/** Seconds: an unreachable host fails an attempt rather than hanging it. */
const CONNECT_TIMEOUT_S = 5;
/** The poll, the occasional row a payload could not hold, and publishes: a few connections are plenty. */
const POOL_MAX = 3;

interface BusState {
  readonly sql: SQL;
  /** This instance's id, in its rows and notifications. */
  readonly origin: string;
  readonly cache: RenderCacheControl;
  readonly log: Logger;
  /** Host, port and database, never a password: for log lines. */
  readonly database: string;
  closed: boolean;
  schema: Promise<void> | undefined;
  subscription: SQL.ListenSubscription | undefined;
  /** onlisten calls so far: each one after the first is a reconnect. */
  listens: number;
  /** The previous poll's database time less MARGIN, as text (exact to the microsecond). */
  since: string | undefined;
  polls: number;
  /** Other instances' rows applied, each with the count of polls begun then: the ids a later poll may read again. */
  readonly seen: Map<string, number>;
  /** The last attempt failed: the next one that succeeds clears the cache. */
  failing: boolean;
  prunedAt: number;
}

/**
 * Resolves after one attempt at the database, reachable or not: a bus whose database is down logs a warning and
 * keeps trying every pollMs; in the meantime its publish rejects.
 */
export async function startPgInvalidations(options: PgInvalidationsOptions): Promise<InvalidationBus> {
  const { url, cache, log, pollMs = 1000 } = options;
  const parsed = new URL(url);
  const bus: BusState = {
    sql: new SQL(url, { connectionTimeout: CONNECT_TIMEOUT_S, max: POOL_MAX }),
    origin: crypto.randomUUID(),
    cache,
    log,
    database: `${parsed.host}${parsed.pathname}`,
    closed: false,
    schema: undefined,
    subscription: undefined,
    listens: 0,
    since: undefined,
    polls: 0,
    seen: new Map(),
    failing: false,
    prunedAt: 0,
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ticking: Promise<void> | undefined;
  const beat = async () => {
    ticking = tick(bus);
    await ticking;
    // Unref'd: polling alone never keeps a process alive (the LISTEN connection does, until close).
    if (!bus.closed) timer = setTimeout(beat, pollMs).unref();
  };
  await beat();
  let closing: Promise<void> | undefined;
  return {
    publish: (invalidation) => publish(bus, invalidation),
    close() {
      bus.closed = true;
      clearTimeout(timer);
      closing ??= (async () => {
        await bus.subscription?.unlisten();
        // Queries under way get a second to finish; one waiting on an unreachable host is cut short.
        await bus.sql.close({ timeout: 1 });
        await ticking;
      })();
      return closing;
    },
  };
}

async function publish(bus: BusState, invalidation: Invalidation): Promise<void> {
  if (bus.closed) throw new Error("cache invalidation not published: the bus is closed");
  const row = toRow(invalidation);
  // Nothing to drop: nothing to tell.
  if (row.names === "[]") return;
  try {
    await ensureSchema(bus);
    // One statement, one transaction: the notification leaves at commit, when the row is there to be read.
    await bus.sql`WITH row AS (
        INSERT INTO brisk_cache_invalidations (origin, kind, names) VALUES (${bus.origin}, ${row.kind}, ${row.names})
        RETURNING id)
      SELECT pg_notify(${CHANNEL}, '{"id":"' || id || '"' || ${payloadTail(bus.origin, row)}) FROM row`;
  } catch (error) {
    throw new Error(`cache invalidation not published: ${bus.database} (${describe(error)})`, { cause: error });
  }
}

/** One attempt: set up, listen, poll, prune; a failure is logged once per outage and tried again next beat. */
async function tick(bus: BusState): Promise<void> {
  try {
    await ensureSchema(bus);
    await ensureListening(bus);
    await poll(bus);
    await prune(bus);
  } catch (error) {
    if (bus.closed || bus.failing) return;
    bus.failing = true;
    bus.log({
      level: "warn",
      msg: "cache invalidations: database unavailable, other instances' invalidations wait; trying again",
      database: bus.database,
      error: describe(error),
    });
  }
}

function ensureSchema(bus: BusState): Promise<void> {
  // One set-up shared by the poll and publishes; after a failure the next caller tries again.
  bus.schema ??= bus.sql
    .begin(async (tx) => {
      await tx.unsafe(`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK})`);
      for (const statement of SCHEMA) await tx.unsafe(statement);
    })
    .then(
      () => undefined,
      (error: unknown) => {
        bus.schema = undefined;
        throw error;
      },
    );
  return bus.schema;
}

/** Subscribes once: after that, Bun keeps the subscription across reconnects and calls onListen after each. */
async function ensureListening(bus: BusState): Promise<void> {
  if (bus.subscription) return;
  const subscription = await bus.sql.listen(
    CHANNEL,
    (payload) => onNotify(bus, payload),
    () => onListen(bus),
  );
  if (bus.closed) await subscription.unlisten();
  else bus.subscription = subscription;
}

function onListen(bus: BusState): void {
  if (++bus.listens === 1) return;
  clearAll(bus, "cache invalidations: listening again after a lost connection; cache cleared");
}

function onNotify(bus: BusState, payload: string): void {
  const message = parsePayload(payload);
  if (!message) {
    bus.log({ level: "warn", msg: "cache invalidations: a notification that is not one, ignored", channel: CHANNEL });
    return;
  }
  if (message.origin === bus.origin || bus.seen.has(message.id)) return;
  if (message.invalidation) applyOnce(bus, message.id, message.invalidation);
  // Too big for a payload: the row has it. If it cannot be read now, the poll will read it.
  else void readRows(bus, [message.id]).catch(() => {});
}

/** Applies the rows of these ids (other instances'). */
async function readRows(bus: BusState, ids: string[]): Promise<void> {
  const rows = await bus.sql<{ id: string; kind: string; names: string }[]>`
    SELECT id, kind, names FROM brisk_cache_invalidations WHERE id = ANY(${bus.sql.array(ids, "INT8")}) ORDER BY id`;
  for (const { id, kind, names } of rows) {
    const invalidation = parseRow(kind, names);
    if (invalidation) applyOnce(bus, id, invalidation);
    else {
      bus.seen.set(id, bus.polls);
      bus.log({ level: "warn", msg: "cache invalidations: a row that is not one, ignored", id });
    }
  }
}

function applyOnce(bus: BusState, id: string, invalidation: Invalidation): void {
  if (bus.seen.has(id)) return;
  bus.seen.set(id, bus.polls);
  try {
    bus.cache.apply(invalidation);
  } catch (error) {
    bus.log({
      level: "error",
      msg: "cache invalidations: the render cache failed to apply one",
      error: describe(error),
    });
  }
}

/**
 * Reads the ids of other instances' rows since the previous poll and applies those not seen yet. The seen set
 * keeps only what a later poll can read again: this poll's ids, and the ids notifications brought meanwhile.
 */
async function poll(bus: BusState): Promise<void> {
  const begun = ++bus.polls;
  const [found] = await bus.sql<{ next: string; ids: string[] }[]>`
    SELECT (now() - ${MARGIN}::interval)::text AS next,
      array(SELECT id FROM brisk_cache_invalidations
        WHERE origin <> ${bus.origin} AND at > coalesce(${bus.since ?? null}::timestamptz, now() - ${MARGIN}::interval)
      ) AS ids`;
  const ids = new Set(found!.ids);
  if (bus.failing) {
    bus.failing = false;
    for (const id of ids) bus.seen.set(id, begun);
    clearAll(bus, "cache invalidations: database reachable again; cache cleared");
  }
  const unseen = [...ids].filter((id) => !bus.seen.has(id));
  if (unseen.length > 0) await readRows(bus, unseen);
  for (const [id, when] of bus.seen) if (when < begun && !ids.has(id)) bus.seen.delete(id);
  bus.since = found!.next;
}

async function prune(bus: BusState): Promise<void> {
  if (Date.now() - bus.prunedAt < PRUNE_EVERY_MS) return;
  bus.prunedAt = Date.now();
  await bus.sql`DELETE FROM brisk_cache_invalidations WHERE at < now() - ${`${KEEP_MINUTES} minutes`}::interval`;
}

function clearAll(bus: BusState, msg: string): void {
  try {
    bus.cache.clear();
    bus.log({ level: "warn", msg, database: bus.database });
  } catch (error) {
    bus.log({ level: "error", msg: "cache invalidations: the render cache failed to clear", error: describe(error) });
  }
}

/** The error's code and first line. */
function describe(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  const line = String(error instanceof Error ? error.message : error).split("\n", 1)[0];
  return typeof code === "string" ? `${code}: ${line}` : line!;
}
