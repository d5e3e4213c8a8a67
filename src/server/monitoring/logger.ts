// logger.ts: one JSON object per line on stdout, the format log collectors read without parsing rules.
import type { Logger, LogRecord } from "../../runtime/app-server.ts";
import { stdoutWriter } from "./log-writer.ts";

export type { LogRecord, Logger } from "../../runtime/app-server.ts";

export interface BatchedLogger extends Logger {
  /** Writes what is pending now; the process calls it on exit. */
  flush(): void;
}

/** A burst of lines goes out in one write once it reaches this size… */
const FLUSH_BYTES = 16 * 1024;
/** …or this long after its first line, so a quiet server's lines still appear at once to the eye. */
const FLUSH_MS = 10;

/**
 * Lines are gathered and written together: a write per request is a system call per request (a large share
 * of a prerendered 404's CPU, bench/README.md), and under load hundreds of lines share one write. Nothing waits
 * longer than FLUSH_MS.
 */
export function batchedLogger(write: (text: string) => void): BatchedLogger {
  let pending = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!pending) return;
    const text = pending;
    pending = "";
    write(text);
  };
  const log: Logger = (record) => {
    pending += formatLine(record);
    if (pending.length >= FLUSH_BYTES) flush();
    // Unref'd: pending lines never keep a finished process alive; the exit hook writes them.
    else timer ??= setTimeout(flush, FLUSH_MS).unref();
  };
  return Object.assign(log, { flush });
}

/** Under load many lines share a millisecond: its timestamp is formatted once. */
let stamped = { ms: Number.NaN, iso: "" };

function now(): string {
  const ms = Date.now();
  if (ms !== stamped.ms) stamped = { ms, iso: new Date(ms).toISOString() };
  return stamped.iso;
}

/**
 * One log line: the record with its time first, as JSON. The time goes in front of the record's own JSON
 * rather than into a copy of it, cheaper (bench/README.md, figures the source carried: prerendered pages); a
 * record with a `time` of its own keeps it, as the copy did.
 */
function formatLine(record: LogRecord): string {
  if ("time" in record) return `${JSON.stringify({ time: now(), ...record })}\n`;
  return `{"time":"${now()}",${JSON.stringify(record).slice(1)}\n`;
}

const stdout = stdoutWriter((dropped) => formatLine({ level: "warn", msg: "log lines dropped", dropped }));
export const stdoutLogger = batchedLogger(stdout);
// Covers process.exit() (shutdown, the health check, a crash): the last lines are the ones that matter.
process.on("exit", () => {
  stdoutLogger.flush();
  stdout.close();
});
