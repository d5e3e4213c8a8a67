// admission.ts: the slots of a pool of body reads, and each client's share of them. A read takes its slot
// before a byte of its body is read, so the bodies a pool holds are bounded (request-body.ts); no one client
// holds more than its share, a client whose body fell behind its pace holds one slot at a time for a while,
// and when every slot is taken, the body that would hold its slot longest yields it to a post that asks.
import { CLIENT_SHARE, clientKey } from "../request/forwarded.ts";
import type { BodyWatch, ReadingBody } from "./request-body.ts";

/**
 * Who a post comes from: the visitor's address (all requests without one, such as in-process ones, count as
 * one client), or a function that finds it, called only once the client's share could be full.
 */
export type Client = string | undefined | (() => string | undefined);

/**
 * The slot a read holds. Its body read (readBody) reports to it, so that the slot can be taken back from a body
 * still arriving: the read then fails at once with a BodyTimeout (408) and the slot passes on.
 */
export interface Slot extends BodyWatch {
  /** Its body fell behind its pace (a 408): its client holds one slot at a time for the next SLOW_CLIENT_MS. */
  fellBehind(): void;
}

export interface Admission {
  /**
   * Runs `work` holding one slot, and one of `client`'s share, until it settles; undefined, without running
   * it, when every slot is taken by work that may not yield (YIELD_AFTER_MS), or the client's share is and
   * stays taken for CLIENT_WAIT_MS.
   */
  run<T>(client: Client, work: (slot: Slot) => Promise<T>): Promise<T | undefined>;
}

/**
 * How long a post waits for one of its client's own slots: a burst (a dozen likes at once) is read a few at a
 * time instead of refused, while a client whose share is held by stalled uploads is refused soon after.
 */
export const CLIENT_WAIT_MS = 250;

/**
 * How long a client whose body fell behind its pace holds one slot at a time. The pace frees a stalled
 * body's slot within seconds, but a client that reconnects at once takes it straight back (over loopback
 * within a millisecond): eight addresses would hold every slot as before, only in turns. With one slot each
 * while they keep stalling, they hold an eighth of what they did. A slow phone whose upload was cut can still
 * post, one body at a time; the minute starts again with each body of the client's that falls behind.
 */
export const SLOW_CLIENT_MS = 60_000;

/**
 * When every slot is taken, a post within its client's share takes the slot of a body that has been arriving
 * for at least this long: the one that, at its average rate so far, has the longest still to go (a stalled
 * one first). That body is cut (408) and its client holds one slot at a time for SLOW_CLIENT_MS, as if it had
 * fallen behind. Without it, bodies that keep the pace but are sized to end just before BODY_TIMEOUT_MS (a
 * trickle of 5 KB/s) held every slot from eight addresses for as long as they liked, never a 408 among them
 * (red team N2). Nothing yields while a slot is free, so a slow phone's upload is cut only when the pool is
 * full and it is the furthest from done; the second lets every form post and small upload finish first.
 */
export const YIELD_AFTER_MS = 1_000;

/**
 * The most slow clients remembered: past it the longest-known is forgotten first. A map of addresses grows
 * with the addresses seen, and an attacker with this many has no need to stall.
 */
const SLOW_CLIENTS_KEPT = 10_000;

/** One slot taken; `key` is its client's once asked. */
interface Holder {
  readonly client: Client;
  key?: string;
  /** Its body, from the start of its read until the read settles, and what stops that read. */
  body?: ReadingBody;
  cut?: (message: string) => void;
  /** When its read started (on `now`). */
  since?: number;
  /** The post its slot was taken back for, which it passes to as it is released. */
  successor?: (granted: boolean) => void;
}

const keyOf = (client: Client) => clientKey(typeof client === "function" ? client() : client);

export interface AdmissionOptions {
  /** The most slots one client holds. */
  perClient?: number;
  /** The clock SLOW_CLIENT_MS and YIELD_AFTER_MS are counted on, in ms: a test's own. */
  now?: () => number;
}

/** A pool's slots, its clients' counts and queues: what every step of an admission reads and changes. */
interface AdmissionState {
  readonly capacity: number;
  /** The most slots one client holds. */
  readonly perClient: number;
  readonly now: () => number;
  inUse: number;
  readonly byClient: Map<string, number>;
  /**
   * Slots taken while fewer than a share's worth were in use: no share could be full then, so their clients
   * are asked (a socket address lookup each) only once more are.
   */
  readonly unkeyed: Set<Holder>;
  /** Posts waiting for a slot of their client's share, each told whether it got one. */
  readonly waiting: Map<string, Array<(granted: boolean) => void>>;
  /** Clients whose bodies fell behind their pace, and until when (on `now`): the soonest first. */
  readonly slowUntil: Map<string, number>;
  /** The holders whose bodies are being read: those a slot may be taken back from. */
  readonly reading: Set<Holder>;
}

export function createAdmission(capacity: number, options: AdmissionOptions = {}): Admission {
  const pool: AdmissionState = {
    capacity,
    perClient: options.perClient ?? Math.ceil(capacity / CLIENT_SHARE),
    now: options.now ?? (() => performance.now()),
    inUse: 0,
    byClient: new Map(),
    unkeyed: new Set(),
    waiting: new Map(),
    slowUntil: new Map(),
    reading: new Set(),
  };
  return { run: (client, work) => run(pool, client, work) };
}

async function run<T>(pool: AdmissionState, client: Client, work: (slot: Slot) => Promise<T>): Promise<T | undefined> {
  const holder: Holder = { client };
  const got = admitted(pool, holder);
  if (got !== true && !(await got)) return undefined;
  try {
    return await work(slotOf(pool, holder));
  } finally {
    release(pool, holder);
  }
}

/** Whether `holder` got a slot: a free one, one of its client's own passed on (its turn), or one taken back. */
function admitted(pool: AdmissionState, holder: Holder): boolean | Promise<boolean> {
  if (pool.inUse >= pool.capacity) return takeBack(pool, holder);
  // A turn is a slot passed on by one of the client's own posts: the counts stay.
  return admit(pool, holder) || turn(pool, holder.key!);
}

/** The slots `key` may hold now. */
function shareOf(pool: AdmissionState, key: string): number {
  const until = pool.slowUntil.get(key);
  if (until === undefined) return pool.perClient;
  if (until > pool.now()) return 1;
  pool.slowUntil.delete(key);
  return pool.perClient;
}

function markSlow(pool: AdmissionState, holder: Holder) {
  const key = (holder.key ??= keyOf(holder.client));
  const at = pool.now();
  // Taken out and put back, so the map stays in the order its entries end.
  pool.slowUntil.delete(key);
  pool.slowUntil.set(key, at + SLOW_CLIENT_MS);
  for (const [oldest, until] of pool.slowUntil) {
    if (until > at && pool.slowUntil.size <= SLOW_CLIENTS_KEPT) break;
    pool.slowUntil.delete(oldest);
  }
}

function count(pool: AdmissionState, holder: Holder, key: string) {
  holder.key = key;
  pool.byClient.set(key, (pool.byClient.get(key) ?? 0) + 1);
}

/** A slot of `key`'s share as one is given back, or false after CLIENT_WAIT_MS (or with a share's worth already waiting). */
function turn(pool: AdmissionState, key: string): Promise<boolean> {
  const queue = pool.waiting.get(key) ?? [];
  if (queue.length >= shareOf(pool, key)) return Promise.resolve(false);
  pool.waiting.set(key, queue);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      queue.splice(queue.indexOf(grant), 1);
      if (queue.length === 0) pool.waiting.delete(key);
      resolve(false);
    }, CLIENT_WAIT_MS);
    const grant = (granted: boolean) => (clearTimeout(timer), resolve(granted));
    queue.push(grant);
  });
}

/** Whether `holder`'s client, found now, holds fewer slots than its share (its key is kept either way). */
function withinShare(pool: AdmissionState, holder: Holder): boolean {
  // A share may be full from here on: every slot taken counts against its client's.
  for (const early of pool.unkeyed) count(pool, early, early.key ?? keyOf(early.client));
  pool.unkeyed.clear();
  const key = (holder.key = keyOf(holder.client));
  return (pool.byClient.get(key) ?? 0) < shareOf(pool, key);
}

/**
 * Takes a slot for `holder`: false, its client found, when that client's share is full (the post may
 * wait for a turn).
 */
function admit(pool: AdmissionState, holder: Holder): boolean {
  if (pool.inUse < pool.perClient) {
    pool.inUse++;
    pool.unkeyed.add(holder);
    return true;
  }
  if (!withinShare(pool, holder)) return false;
  pool.inUse++;
  count(pool, holder, holder.key!);
  return true;
}

/** The body being read that would hold its slot longest, once it has held it for YIELD_AFTER_MS. */
function longestToGo(pool: AdmissionState): Holder | undefined {
  const at = pool.now();
  let found: Holder | undefined;
  let most = -1;
  for (const holder of pool.reading) {
    const elapsed = at - holder.since!;
    if (holder.successor || elapsed < YIELD_AFTER_MS) continue;
    const { expected, received } = holder.body!;
    const toGo = received === 0 ? Infinity : ((expected - received) * elapsed) / received;
    if (toGo > most) [found, most] = [holder, toGo];
  }
  return found;
}

/**
 * Every slot taken: the slot of the body with the longest still to go, cut for `holder`, which is counted
 * against its client's share from now; false when the client's share is full, or no body may yield.
 */
function takeBack(pool: AdmissionState, holder: Holder): Promise<boolean> | false {
  if (!withinShare(pool, holder)) return false;
  const victim = longestToGo(pool);
  if (!victim) return false;
  count(pool, holder, holder.key!);
  const { promise, resolve } = Promise.withResolvers<boolean>();
  victim.successor = resolve;
  markSlow(pool, victim);
  const { received, expected } = victim.body!;
  // Settles the victim's read at once, so its work ends and releases the slot within this turn of the loop.
  victim.cut!(
    `the body yielded its slot to another post: every slot was taken, and it had sent ${received} of ${expected} bytes ` +
      `in ${Math.round(pool.now() - victim.since!)} ms`,
  );
  return promise;
}

function release(pool: AdmissionState, holder: Holder) {
  pool.reading.delete(holder);
  if (pool.unkeyed.delete(holder)) {
    pool.inUse--;
    return;
  }
  const key = holder.key!;
  const held = pool.byClient.get(key)!;
  // Taken back, the slot is its successor's, counted against that client's share already. Otherwise it
  // passes to the client's next waiting post as it is, the counts unchanged, unless the client holds more
  // than its share (it fell behind while holding several).
  if (!holder.successor) {
    const queue = pool.waiting.get(key);
    const next = held <= shareOf(pool, key) ? queue?.shift() : undefined;
    if (queue?.length === 0) pool.waiting.delete(key);
    if (next) return next(true);
    pool.inUse--;
  }
  if (held === 1) pool.byClient.delete(key);
  else pool.byClient.set(key, held - 1);
  holder.successor?.(true);
}

/** The slot `holder` takes: its read reports to it, so that it can be taken back. */
function slotOf(pool: AdmissionState, holder: Holder): Slot {
  return {
    fellBehind: () => markSlow(pool, holder),
    reading(body, cut) {
      holder.body = body;
      holder.cut = cut;
      holder.since = pool.now();
      pool.reading.add(holder);
    },
    done: () => void pool.reading.delete(holder),
  };
}
