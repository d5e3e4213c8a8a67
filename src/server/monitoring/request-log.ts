// request-log.ts: the request pipeline's last step: every request's one JSON log line.
import type { Logger } from "./logger.ts";
import type { RequestContext, RequestRecord } from "../request/context.ts";

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
 * line; one the visitor cut off is logged as such, not as the 200 its headers said.
 */
export function logRequest(log: Logger, context: RequestContext, status: number): void {
  if (!context.done) return log(logLine(context, status));
  const end = () => log(logLine(context, context.request.signal.aborted ? CLIENT_CLOSED : status));
  context.done.then(end, end);
}
