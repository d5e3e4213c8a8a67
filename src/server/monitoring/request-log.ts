// request-log.ts: the request pipeline's last step: every request's one JSON log line.
import type { Logger } from "./logger.ts";
import type { RequestRecord } from "../request/context.ts";

/** nginx's status for a request whose client closed the connection before the response was complete. */
const CLIENT_CLOSED = 499;

function logLine(record: RequestRecord, status: number): Parameters<Logger>[0] {
  const [first] = record.errors;
  const line: Parameters<Logger>[0] = {
    level: first ? "error" : status >= 500 ? (record.relayed || record.shed ? "warn" : "error") : "info",
    msg: "request",
    method: record.method,
    path: record.path,
    status,
    ms: Math.round((performance.now() - record.start) * 10) / 10,
    requestId: record.id,
  };
  if (record.route) line.route = record.route;
  if (first) {
    line.digest = first.digest;
    line.phase = first.phase;
    line.error = `${first.name}: ${first.message}`;
    line.stack = first.stack;
    if (record.errors.length > 1) line.digests = record.errors.map((e) => e.digest);
  }
  return line;
}

/**
 * Writes the request's line. A streamed page is logged when it has finished rendering, so late errors join its
 * line; one the visitor cut off (`signal`) is logged as such, not as the 200 its headers said.
 */
export function logRequest(log: Logger, record: RequestRecord, status: number, signal: AbortSignal): void {
  if (!record.done) return log(logLine(record, status));
  const end = () => log(logLine(record, signal.aborted ? CLIENT_CLOSED : status));
  record.done.then(end, end);
}
