// soak-logs.ts: reads the server's stdout and stderr line by line and sorts every line into
// expected or not, keeping counts and a few samples rather than hundreds of thousands of lines.
import { FAILING_PATHS } from "./app/site.ts";

/** How many offending lines the report quotes. */
const SAMPLES = 5;

export interface LogTally {
  /** The soak's phase now ("load", or an attack's name): each line counts under the phase it is read in. */
  phase: string;
  /** `request` lines, by level. */
  requests: Map<string, number>;
  /** Error lines from the bench app's pages that fail on purpose (FAILING_PATHS): the point, not a problem. */
  intended: number;
  /**
   * Tunnel 502/504 lines, by phase: the upstream failed (made to, or slower than the tunnel waits under load);
   * the line has no digest (nothing of ours threw).
   */
  upstreamFailures: Map<string, number>;
  /** The server's own Sentry transport saying the upstream is down and it keeps envelopes on disk: the flapping's doing. */
  sentryUnreachable: number;
  /** Error-level lines that are neither of the above, by phase (the attacks must cause none). */
  errors: Map<string, number>;
  /** Everything else above info, every non-JSON line on stdout, and every stderr line. */
  unexpected: number;
  samples: string[];
  /** The server's own lifecycle lines (listening, stopping, stopped), kept whole. */
  lifecycle: Record<string, unknown>[];
  /** Lines the server said it dropped while its stdout was dead, and the stderr lines that told it. */
  dropped: { lines: number; reports: number; stderr: number };
  /** First lines of a restarted log shipper that were the tail of a line the killed one had begun. */
  torn: number;
}

export function emptyTally(): LogTally {
  return {
    phase: "load",
    requests: new Map(),
    intended: 0,
    upstreamFailures: new Map(),
    sentryUnreachable: 0,
    errors: new Map(),
    unexpected: 0,
    samples: [],
    lifecycle: [],
    dropped: { lines: 0, reports: 0, stderr: 0 },
    torn: 0,
  };
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function flag(tally: LogTally, line: string): void {
  tally.unexpected++;
  if (tally.samples.length < SAMPLES) tally.samples.push(line.length > 400 ? `${line.slice(0, 400)}…` : line);
}

/** `first`: the first line a restarted log shipper reads, which may be the tail of a line cut in two. */
export function sortStdoutLine(tally: LogTally, line: string, first = false): void {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line);
  } catch {
    if (first) return void tally.torn++;
    return flag(tally, `stdout: ${line}`);
  }
  const { level, msg, path, status, digest, dropped } = record;
  if (msg === "request") tally.requests.set(String(level), (tally.requests.get(String(level)) ?? 0) + 1);
  else if (msg === "log lines dropped" && typeof dropped === "number") {
    tally.dropped.lines += dropped;
    tally.dropped.reports++;
    return;
  } else tally.lifecycle.push(record);
  if (level === "info") return;
  if (msg === "request" && FAILING_PATHS.has(String(path))) tally.intended++;
  else if (msg === "request" && path === "/monitoring" && (status === 502 || status === 504) && digest === undefined) {
    bump(tally.upstreamFailures, tally.phase);
  } else if (level === "warn" && String(msg).startsWith("sentry unreachable:")) tally.sentryUnreachable++;
  else {
    if (level === "error") bump(tally.errors, tally.phase);
    flag(tally, line);
  }
}

export function sortStderrLine(tally: LogTally, line: string): void {
  // The one line a server writes when its stdout dies: expected while the soak has killed the log shipper.
  if (line.startsWith("brisk: log lines dropped")) return void tally.dropped.stderr++;
  // An unhandled rejection, a crash, a console.error: none belongs in a healthy server's stderr.
  flag(tally, `stderr: ${line}`);
}

/** Calls `onLine` for each non-empty line of `stream` until it ends. */
export async function eachLine(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let rest = "";
  for await (const chunk of stream) {
    const lines = (rest + decoder.decode(chunk, { stream: true })).split("\n");
    rest = lines.pop()!;
    for (const line of lines) if (line.trim()) onLine(line);
  }
  if (rest.trim()) onLine(rest);
}
