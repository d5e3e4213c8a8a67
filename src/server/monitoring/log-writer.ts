// log-writer.ts: writes log text to stdout, which may stall or die, without ever taking the server down with it.
import { writeSync } from "node:fs";

export interface LogDevice {
  /** Writes what it can and says how much (writeSync); throws EAGAIN when it would block, EPIPE once no one reads. */
  write(bytes: Uint8Array): number;
  /** A line for the operator when the log itself is failing (stderr). */
  warn(text: string): void;
  /** The report of lines lost, as a log line of the stream's own format. */
  droppedLine(dropped: number): string;
}

export interface LogWriter {
  (text: string): void;
  /** Tries once more to write what is queued; says on stderr how many lines never got out. For process exit. */
  close(): void;
}

/** Held while the reader is slow (a write would block or comes up short); past this, new lines are dropped. */
const QUEUE_MAX_BYTES = 1024 * 1024;
/** How soon a queued rest is tried again. */
const RETRY_MS = 20;
const EMPTY = new Uint8Array(0);

const countLines = (bytes: Uint8Array) => bytes.reduce((n, b) => (b === 10 ? n + 1 : n), 0);

/**
 * Lines keep their order. A stall queues them (up to QUEUE_MAX_BYTES) and retries; a failed write (EPIPE: a
 * log shipper restarting, a reader that went away) drops what it held, and the next line tries again. Lost
 * lines are counted: the first write that gets through after a loss starts with one line saying how many,
 * and the first loss is also told once on stderr, in case stdout never comes back.
 *
 * It never goes through process.stdout: that Node stream costs cold start to build, and on a broken pipe it
 * raises an 'error' event nobody handles, which ends the process.
 */
export function logWriter(device: LogDevice): LogWriter {
  let queue: Uint8Array = EMPTY;
  let dropped = 0;
  let warned = false;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const drop = (bytes: Uint8Array, why: string) => {
    dropped += countLines(bytes);
    if (warned) return;
    warned = true;
    device.warn(`brisk: log lines dropped (${why}); their count follows on stdout once it works again\n`);
  };

  /** Writes what the device takes now of `bytes`: how much went out, and why it stopped if it failed. */
  const attempt = (bytes: Uint8Array): { written: number; failure?: string } => {
    let written = 0;
    while (written < bytes.byteLength) {
      try {
        const n = device.write(bytes.subarray(written));
        if (n === 0) break;
        written += n;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === "EAGAIN") break;
        return { written, failure: code ?? String(error) };
      }
    }
    return { written };
  };

  /**
   * Writes `bytes`, queueing what the device does not take yet. On a failure what did not get out is lost;
   * `report` marks a leading report line, not a line of its own: if it did not get out whole, its count is.
   */
  const push = (bytes: Uint8Array, report?: { bytes: number; count: number }) => {
    const { written, failure } = attempt(bytes);
    if (failure !== undefined) {
      if (report && written < report.bytes) dropped += report.count;
      return drop(bytes.subarray(Math.max(written, report?.bytes ?? 0)), failure);
    }
    // Stdout works again: a later outage is worth a line on stderr of its own.
    if (report && written >= report.bytes) warned = false;
    queue = bytes.subarray(written);
    if (queue.byteLength) retry ??= setTimeout(flushQueue, RETRY_MS).unref();
  };

  function flushQueue() {
    retry = undefined;
    const rest = queue;
    queue = EMPTY;
    push(rest);
  }

  const write = (text: string) => {
    const bytes = Buffer.from(text);
    if (queue.byteLength) {
      if (queue.byteLength + bytes.byteLength > QUEUE_MAX_BYTES) return drop(bytes, "stdout is not keeping up");
      queue = Buffer.concat([queue, bytes]);
      return;
    }
    if (!dropped) return push(bytes);
    // The report goes first, in the same write: once it is out, the count it carries starts again from 0.
    const report = Buffer.from(device.droppedLine(dropped));
    const count = dropped;
    dropped = 0;
    push(Buffer.concat([report, bytes]), { bytes: report.byteLength, count });
  };

  return Object.assign(write, {
    close() {
      clearTimeout(retry);
      flushQueue();
      if (queue.byteLength) drop(queue, "stdout did not take them before exit");
      if (dropped) device.warn(`brisk: ${dropped} log lines were dropped: stdout was not taking them\n`);
    },
  });
}

function warnOnStderr(text: string): void {
  try {
    writeSync(2, text);
  } catch {
    // stderr is gone too: there is no one left to tell.
  }
}

/** Writes to fd 1 directly. */
export function stdoutWriter(droppedLine: (dropped: number) => string): LogWriter {
  return logWriter({ write: (bytes) => writeSync(1, bytes), warn: warnOnStderr, droppedLine });
}
