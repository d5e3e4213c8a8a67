// replica-invalidation.ts: how soon a write on one instance reaches another's render cache. Two bench servers on one
// PostgreSQL (DATABASE_URL: the invalidation bus) share the guestbook (one SQLite file under one DATA_DIR); B keeps
// the cached guestbook, a write goes through A's API (insert, then revalidateTag), and B is asked again and again,
// one request at a time, until its answer shows the new entry.
import { startPostgres } from "brisk/test";
import type { BenchServers } from "./bench-servers.ts";
import { renderCacheStats } from "./cached-page.ts";
import type { Child } from "./proc.ts";

export const REPLICA_PATH = "/cached/guestbook";
/** The figure: the p99 over 100 writes. */
export const REPLICA_WRITES = 100;
const WRITE_PATH = "/api/guestbook";
/** Past this a write counts as never seen on B. */
const SEEN_WITHIN_MS = 5_000;
/** Writes in a row never seen on B: B is not being told (no bus), and each further one would only wait as long. */
const GIVE_UP_AFTER = 3;

export interface ReplicaInvalidation {
  /** Writes sent. */
  writes: number;
  /** From sending the write to A to B's first answer that shows it, ms, for each write B showed. */
  seenMs: number[];
  /** A's answer to the write (the insert, revalidateTag and its publish), ms. */
  writeMs: number[];
  /** Writes B had not shown within SEEN_WITHIN_MS. */
  unseen: number;
  /** B's answers asked for while waiting, in all. */
  polls: number;
  /** The x-cache of B's first answer showing each write: "miss" (rendered afresh), never a kept answer. */
  changedBy: Record<string, number>;
  /** B's cache's count of answers dropped by invalidations. */
  invalidated: number;
  /** Why the writes stopped before all were sent. */
  stopped?: string;
}

async function xCacheOf(res: Response): Promise<string> {
  await res.arrayBuffer();
  return res.headers.get("x-cache") ?? "none";
}

/** Asks B until it answers from its cache: the write that follows must be what changes that answer. */
async function untilKept(b: Child): Promise<void> {
  for (let i = 0; i < 5; i++) if ((await xCacheOf(await fetch(b.origin + REPLICA_PATH))) === "hit") return;
  throw new Error(`${b.name} does not keep ${REPLICA_PATH}`);
}

async function write(a: Child, message: string): Promise<void> {
  const res = await fetch(a.origin + WRITE_PATH, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "replica", message }),
  });
  if (res.status !== 201) throw new Error(`${a.name} answered the write ${res.status}: ${await res.text()}`);
}

/** Asks B until its answer shows `message`; the ms since `sent` and that answer's x-cache, or undefined past the limit. */
async function untilShown(b: Child, message: string, sent: number, result: ReplicaInvalidation) {
  for (;;) {
    const res = await fetch(b.origin + REPLICA_PATH);
    const shown = (await res.text()).includes(message);
    const ms = performance.now() - sent;
    result.polls++;
    if (shown) return { ms, xCache: res.headers.get("x-cache") ?? "none" };
    if (ms > SEEN_WITHIN_MS) return undefined;
  }
}

async function measureWrites(a: Child, b: Child, writes: number): Promise<ReplicaInvalidation> {
  const result: ReplicaInvalidation = {
    writes: 0,
    seenMs: [],
    writeMs: [],
    unseen: 0,
    polls: 0,
    changedBy: {},
    invalidated: 0,
  };
  let unseenInARow = 0;
  for (let i = 0; i < writes; i++) {
    await untilKept(b);
    const message = `write ${i} ${crypto.randomUUID().slice(0, 8)}`;
    const sent = performance.now();
    await write(a, message);
    result.writes++;
    result.writeMs.push(performance.now() - sent);
    const seen = await untilShown(b, message, sent, result);
    if (seen) {
      result.seenMs.push(seen.ms);
      result.changedBy[seen.xCache] = (result.changedBy[seen.xCache] ?? 0) + 1;
      unseenInARow = 0;
    } else if ((result.unseen++, ++unseenInARow) === GIVE_UP_AFTER) {
      result.stopped = `${GIVE_UP_AFTER} writes in a row not shown on B within ${SEEN_WITHIN_MS / 1000} s: is the bus started?`;
      break;
    }
  }
  result.invalidated = (await renderCacheStats(b.origin)).invalidated;
  return result;
}

/** Starts PostgreSQL and the two servers (Sentry off), measures `writes` writes, stops them all. */
export async function measureReplicaInvalidation(
  fleet: BenchServers,
  dataDir: string,
  writes: number,
): Promise<ReplicaInvalidation> {
  const pg = await startPostgres();
  try {
    const env = { DATABASE_URL: await pg.createDatabase("bench_replicas"), DATA_DIR: dataDir };
    const a = await fleet.start("replica A", "brisk-server.ts", env);
    const b = await fleet.start("replica B", "brisk-server.ts", env);
    try {
      return await measureWrites(a, b, writes);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  } finally {
    await pg.remove();
  }
}
