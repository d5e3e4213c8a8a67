// sentry-outbox.ts: a bounded folder where server envelopes wait while Sentry cannot be reached, so a restart loses none.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseEnvelope, serializeEnvelope, type Envelope, type OfflineStore } from "@sentry/core";
import type { Logger } from "./logger.ts";

export interface Outbox {
  /** The store @sentry/core's offline transport keeps undelivered envelopes in. */
  store: OfflineStore;
  /** An envelope the store handed out got a response: it leaves the folder for good. */
  delivered(envelope: Envelope): void;
  /** Writes the drop count not yet logged; for shutdown. */
  close(): void;
}

const WAITING = ".envelope";
const SENDING = ".sending";
/** A waiting file's name ends with its size: the folder's bytes are known from one readdir, every process's files counted. */
const SIZED = /-(\d+)b\.envelope$/;

export interface OutboxLimits {
  /** SENTRY_OUTBOX_MAX: envelopes waiting at most; 0 keeps none. */
  maxEnvelopes: number;
  /** SENTRY_OUTBOX_MAX_BYTES: their bytes at most. */
  maxBytes: number;
}
/** Drops are summed over this long into one log line, not one line per envelope. */
const DROP_LOG_DELAY_MS = 1_000;

/**
 * One file per envelope, named so that names sort oldest first. Handing one out (shift) renames it to
 * `<name>.<pid>.sending` rather than deleting it: the file goes only once the envelope got a response
 * (`delivered`), goes back to waiting if sending failed (unshift), and one left by a process that died
 * mid-send waits again at the next start. Renames are atomic, so processes sharing DATA_DIR never hand out
 * the same envelope twice. Past `maxEnvelopes` waiting envelopes or `maxBytes` of them, new ones are dropped
 * and counted in a log line. The waiting envelopes are counted from the folder once, when first needed, then
 * kept count of as this process writes and takes them, so a push decides at once, with no file call between
 * its check and its claim: a burst of pushes cannot all see the same room. (Processes sharing the folder
 * count each other's envelopes from that first look on only: together they can hold more.) Events carry
 * request data: only the server's user can read the folder and its files.
 */
export function createOutbox(dir: string, limits: OutboxLimits, log: Logger): Outbox {
  const box: OutboxState = {
    ...limits,
    dir,
    log,
    usable: limits.maxEnvelopes > 0 && limits.maxBytes > 0,
    made: false,
    sending: new WeakMap(),
    sequence: 0,
    dropped: 0,
    dropTimer: undefined,
    warnedOutage: false,
    counting: undefined,
  };
  if (box.usable && existsSync(dir)) recoverAbandoned(dir);
  return {
    store: {
      push: (envelope) => push(box, envelope),
      unshift: (envelope) => unshift(box, envelope),
      shift: () => shift(box),
    },
    delivered: (envelope) => delivered(box, envelope),
    close: () => logDrops(box),
  };
}

/** What every step of an outbox reads and changes. */
interface OutboxState extends OutboxLimits {
  readonly dir: string;
  readonly log: Logger;
  /** False with no room at all, or once the folder could not be made: every envelope is dropped. */
  usable: boolean;
  made: boolean;
  /** The envelopes shift handed out: the file each is sent from, and its waiting name to go back to. */
  readonly sending: WeakMap<Envelope, { file: string; waiting: string }>;
  /** Keeps apart the names this process writes within one millisecond. */
  sequence: number;
  /** Drops not logged yet, and the timer that logs them. */
  dropped: number;
  dropTimer: ReturnType<typeof setTimeout> | undefined;
  /** The outage was logged, and Sentry has not answered since. */
  warnedOutage: boolean;
  /** The waiting envelopes, counted from the folder on first need, then kept count of. */
  counting: Promise<Tally> | undefined;
}

interface Tally {
  count: number;
  bytes: number;
}

async function push(box: OutboxState, envelope: Envelope): Promise<void> {
  if (!folderReady(box)) return drop(box);
  const bytes = serializeEnvelope(envelope);
  const size = byteLength(bytes);
  const tally = await waitingTally(box);
  // Checked and claimed with nothing awaited in between.
  if (tally.count >= box.maxEnvelopes || tally.bytes + size > box.maxBytes) return drop(box);
  tally.count++;
  tally.bytes += size;
  if (!box.warnedOutage) {
    box.warnedOutage = true;
    box.log({
      level: "warn",
      msg: "sentry unreachable: envelopes wait on disk and are sent when it answers",
      dir: box.dir,
    });
  }
  try {
    await write(box.dir, newName(box, size), bytes);
  } catch (error) {
    tally.count--;
    tally.bytes -= size;
    throw error;
  }
}

async function unshift(box: OutboxState, envelope: Envelope): Promise<void> {
  const handedOut = box.sending.get(envelope);
  box.sending.delete(envelope);
  if (handedOut) {
    await rename(join(box.dir, handedOut.file), join(box.dir, handedOut.waiting));
    return recount(box, handedOut.waiting, 1);
  }
  if (!folderReady(box)) return drop(box);
  const bytes = serializeEnvelope(envelope);
  // "0" sorts before every dated name: it goes out first, as unshift means.
  const name = newName(box, byteLength(bytes), "0");
  await write(box.dir, name, bytes);
  await recount(box, name, 1);
}

async function shift(box: OutboxState): Promise<Envelope | undefined> {
  const { dir } = box;
  if (!box.usable || !(box.made || existsSync(dir))) return undefined;
  await waitingTally(box);
  for (const waiting of await waitingFiles(dir)) {
    const file = `${waiting}.${process.pid}${SENDING}`;
    try {
      await rename(join(dir, waiting), join(dir, file));
    } catch {
      continue; // another process took it first
    }
    await recount(box, waiting, -1);
    try {
      const envelope = parseEnvelope(await Bun.file(join(dir, file)).bytes());
      box.sending.set(envelope, { file, waiting });
      return envelope;
    } catch {
      await rm(join(dir, file), { force: true }); // unreadable: it can never be sent
    }
  }
  return undefined;
}

function delivered(box: OutboxState, envelope: Envelope): void {
  box.warnedOutage = false;
  const handedOut = box.sending.get(envelope);
  if (!handedOut) return;
  box.sending.delete(envelope);
  void rm(join(box.dir, handedOut.file), { force: true });
}

/** Whether envelopes can be kept: the folder is made on the first one, so a server that never loses Sentry writes nothing. */
function folderReady(box: OutboxState): boolean {
  if (!box.usable || box.made) return box.usable;
  try {
    mkdirSync(box.dir, { recursive: true, mode: 0o700 });
    box.made = true;
  } catch (error) {
    box.usable = false;
    box.log({
      level: "warn",
      msg: "sentry outbox unavailable: envelopes Sentry cannot take now are dropped",
      dir: box.dir,
      error: String(error),
    });
  }
  return box.usable;
}

function drop(box: OutboxState): void {
  box.dropped++;
  box.dropTimer ??= setTimeout(() => logDrops(box), DROP_LOG_DELAY_MS);
  box.dropTimer.unref?.();
}

function logDrops(box: OutboxState): void {
  clearTimeout(box.dropTimer);
  box.dropTimer = undefined;
  if (box.dropped === 0) return;
  box.log({
    level: "warn",
    msg: "sentry outbox full: envelopes dropped",
    dropped: box.dropped,
    max: box.maxEnvelopes,
    maxBytes: box.maxBytes,
    dir: box.dir,
  });
  box.dropped = 0;
}

function waitingTally(box: OutboxState): Promise<Tally> {
  return (box.counting ??= (async () => {
    const files = existsSync(box.dir) ? await waitingFiles(box.dir) : [];
    return { count: files.length, bytes: await waitingBytes(box.dir, files) };
  })());
}

/** One waiting file more (+1) or less (-1). */
async function recount(box: OutboxState, file: string, change: 1 | -1): Promise<void> {
  const tally = await waitingTally(box);
  const size = await sizeOf(box.dir, file);
  tally.count = Math.max(0, tally.count + change);
  tally.bytes = Math.max(0, tally.bytes + change * size);
}

// Date first, zero-padded, so names sort by age; pid and a counter keep concurrent writers apart.
function newName(box: OutboxState, size: number, prefix = ""): string {
  return `${prefix}${String(Date.now()).padStart(15, "0")}-${process.pid}-${box.sequence++}-${size}b${WAITING}`;
}

async function waitingFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => f.endsWith(WAITING)).sort();
}

function sizeOf(dir: string, file: string): number | Promise<number> {
  const sized = SIZED.exec(file);
  // A name without its size is from an older Brisk: its size is asked of the file.
  return sized
    ? Number(sized[1])
    : stat(join(dir, file)).then(
        (s) => s.size,
        () => 0,
      );
}

async function waitingBytes(dir: string, files: string[]): Promise<number> {
  return (await Promise.all(files.map((file) => sizeOf(dir, file)))).reduce((a, b) => a + b, 0);
}

async function write(dir: string, name: string, bytes: string | Uint8Array): Promise<void> {
  const tmp = join(dir, `${name}.tmp`);
  await writeFile(tmp, bytes, { mode: 0o600 });
  await rename(tmp, join(dir, name));
}

function byteLength(bytes: string | Uint8Array): number {
  return typeof bytes === "string" ? Buffer.byteLength(bytes) : bytes.byteLength;
}

/**
 * Envelopes a dead process (or this pid's previous life, as PID 1 in a container) was sending wait again;
 * half-written files it left are removed.
 */
function recoverAbandoned(dir: string): void {
  for (const file of readdirSync(dir)) {
    const sendingBy = /^(.+\.envelope)\.(\d+)\.sending$/.exec(file);
    const writtenBy = /^0?\d+-(\d+)-\d+(?:-\d+b)?\.envelope\.tmp$/.exec(file);
    const pid = Number(sendingBy?.[2] ?? writtenBy?.[1] ?? Number.NaN);
    if (Number.isNaN(pid) || (pid !== process.pid && isAlive(pid))) continue;
    try {
      if (sendingBy) renameSync(join(dir, file), join(dir, sendingBy[1]!));
      else rmSync(join(dir, file), { force: true });
    } catch {
      // Another starting process recovered it first.
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
