// soak-logs.ts: reads the server's stdout and stderr line by line and sorts every line into
// expected or not, keeping counts and a few samples rather than hundreds of thousands of lines.

/** The examples that fail on purpose: their error lines are the point, not a problem. */
export const INTENDED_ERROR_PATHS = new Set(["/examples/server-error", "/examples/render-error", "/examples/late-error"]);

/** How many offending lines the report quotes. */
const SAMPLES = 5;

export interface LogTally {
  /** `request` lines, by level. */
  requests: Map<string, number>;
  /** Error lines from the intended examples. */
  intended: number;
  /** Tunnel 502/504 lines: the upstream was made to fail on purpose; the line has no digest (nothing threw). */
  upstreamFailures: number;
  /** Everything else above info, every non-JSON line on stdout, and every stderr line. */
  unexpected: number;
  samples: string[];
  /** The server's own lifecycle lines (listening, stopping, stopped), kept whole. */
  lifecycle: Record<string, unknown>[];
}

export function emptyTally(): LogTally {
  return { requests: new Map(), intended: 0, upstreamFailures: 0, unexpected: 0, samples: [], lifecycle: [] };
}

function flag(tally: LogTally, line: string): void {
  tally.unexpected++;
  if (tally.samples.length < SAMPLES) tally.samples.push(line.length > 400 ? `${line.slice(0, 400)}…` : line);
}

export function sortStdoutLine(tally: LogTally, line: string): void {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line);
  } catch {
    return flag(tally, `stdout: ${line}`);
  }
  const { level, msg, path, status, digest } = record;
  if (msg === "request") tally.requests.set(String(level), (tally.requests.get(String(level)) ?? 0) + 1);
  else tally.lifecycle.push(record);
  if (level === "info") return;
  if (msg === "request" && INTENDED_ERROR_PATHS.has(String(path))) tally.intended++;
  else if (msg === "request" && path === "/monitoring" && (status === 502 || status === 504) && digest === undefined) tally.upstreamFailures++;
  else flag(tally, line);
}

export function sortStderrLine(tally: LogTally, line: string): void {
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
