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
export function createOutbox(dir: string, { maxEnvelopes, maxBytes }: OutboxLimits, log: Logger): Outbox {
  // The folder is made on the first envelope to keep: a server that never loses Sentry writes nothing.
  let usable = maxEnvelopes > 0 && maxBytes > 0;
  let made = false;
  if (usable && existsSync(dir)) recoverAbandoned(dir);
  const make = () => {
    if (made) return;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      made = true;
    } catch (error) {
      usable = false;
      log({ level: "warn", msg: "sentry outbox unavailable: envelopes Sentry cannot take now are dropped", dir, error: String(error) });
    }
  };
  const sending = new WeakMap<Envelope, { file: string; waiting: string }>();
  let sequence = 0;
  let dropped = 0;
  let dropTimer: ReturnType<typeof setTimeout> | undefined;
  let warnedOutage = false;

  const logDrops = () => {
    clearTimeout(dropTimer);
    dropTimer = undefined;
    if (dropped === 0) return;
    log({ level: "warn", msg: "sentry outbox full: envelopes dropped", dropped, max: maxEnvelopes, maxBytes, dir });
    dropped = 0;
  };
  const drop = () => {
    dropped++;
    dropTimer ??= setTimeout(logDrops, DROP_LOG_DELAY_MS);
    dropTimer.unref?.();
  };
  const waitingFiles = async () => (await readdir(dir)).filter((f) => f.endsWith(WAITING)).sort();
  const sizeOf = (file: string) => {
    const sized = SIZED.exec(file);
    // A name without its size is from an older Brisk: its size is asked of the file.
    return sized ? Number(sized[1]) : stat(join(dir, file)).then((s) => s.size, () => 0);
  };
  const waitingBytes = async (files: string[]) => (await Promise.all(files.map(sizeOf))).reduce((a, b) => a + b, 0);
  let counting: Promise<{ count: number; bytes: number }> | undefined;
  const waitingTally = () =>
    (counting ??= (async () => {
      const files = existsSync(dir) ? await waitingFiles() : [];
      return { count: files.length, bytes: await waitingBytes(files) };
    })());
  /** One waiting file more (+1) or less (-1). */
  const recount = async (file: string, change: 1 | -1) => {
    const tally = await waitingTally();
    const size = await sizeOf(file);
    tally.count = Math.max(0, tally.count + change);
    tally.bytes = Math.max(0, tally.bytes + change * size);
  };
  const write = async (name: string, bytes: string | Uint8Array) => {
    const tmp = join(dir, `${name}.tmp`);
    await writeFile(tmp, bytes, { mode: 0o600 });
    await rename(tmp, join(dir, name));
  };
  // Date first, zero-padded, so names sort by age; pid and a counter keep concurrent writers apart.
  const newName = (size: number, prefix = "") => `${prefix}${String(Date.now()).padStart(15, "0")}-${process.pid}-${sequence++}-${size}b${WAITING}`;

  const store: OfflineStore = {
    async push(envelope) {
      if (usable) make();
      if (!usable) return drop();
      const bytes = serializeEnvelope(envelope);
      const size = byteLength(bytes);
      const tally = await waitingTally();
      // Checked and claimed with nothing awaited in between.
      if (tally.count >= maxEnvelopes || tally.bytes + size > maxBytes) return drop();
      tally.count++;
      tally.bytes += size;
      if (!warnedOutage) {
        warnedOutage = true;
        log({ level: "warn", msg: "sentry unreachable: envelopes wait on disk and are sent when it answers", dir });
      }
      try {
        await write(newName(size), bytes);
      } catch (error) {
        tally.count--;
        tally.bytes -= size;
        throw error;
      }
    },
    async unshift(envelope) {
      const handedOut = sending.get(envelope);
      sending.delete(envelope);
      if (handedOut) {
        await rename(join(dir, handedOut.file), join(dir, handedOut.waiting));
        return recount(handedOut.waiting, 1);
      }
      if (usable) make();
      if (!usable) return drop();
      const bytes = serializeEnvelope(envelope);
      // "0" sorts before every dated name: it goes out first, as unshift means.
      const name = newName(byteLength(bytes), "0");
      await write(name, bytes);
      await recount(name, 1);
    },
    async shift() {
      if (!usable || !(made || existsSync(dir))) return undefined;
      await waitingTally();
      for (const waiting of await waitingFiles()) {
        const file = `${waiting}.${process.pid}${SENDING}`;
        try {
          await rename(join(dir, waiting), join(dir, file));
        } catch {
          continue; // another process took it first
        }
        await recount(waiting, -1);
        try {
          const envelope = parseEnvelope(await Bun.file(join(dir, file)).bytes());
          sending.set(envelope, { file, waiting });
          return envelope;
        } catch {
          await rm(join(dir, file), { force: true }); // unreadable: it can never be sent
        }
      }
      return undefined;
    },
  };

  return {
    store,
    delivered(envelope) {
      warnedOutage = false;
      const handedOut = sending.get(envelope);
      if (!handedOut) return;
      sending.delete(envelope);
      void rm(join(dir, handedOut.file), { force: true });
    },
    close: logDrops,
  };
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
