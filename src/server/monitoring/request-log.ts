// request-log.ts: gives every request an id and a record, and writes its one JSON log line at the end.
import { Elysia } from "elysia";
import type { Logger } from "./logger.ts";
import { contextOf, type ContextOptions, type RequestRecord } from "../request/context.ts";
import { addHeaders } from "../request/headers.ts";

/** nginx's status for a request whose client closed the connection before the response was complete. */
const CLIENT_CLOSED = 499;

export function logLine(record: RequestRecord, status: number): Parameters<Logger>[0] {
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

/** `context`: the server's options for each request's context (whether an incoming X-Request-Id is kept). */
export function requestLogPlugin(log: Logger, context: ContextOptions) {
  return new Elysia({ name: "brisk:request-log" })
    // The first hook of every request (onRequest is always global): its context (id, start time) exists
    // before Elysia parses a body, so a request that fails there is logged and answered with its id.
    .onRequest(function startRecord({ request }) {
      contextOf(request, context);
    })
    .mapResponse({ as: "global" }, function addRequestId({ request, responseValue, set }) {
      addHeaders({ responseValue, set }, [["x-request-id", contextOf(request).id]]);
    })
    .onAfterResponse({ as: "global" }, function logRequest({ request, responseValue, set }) {
      const record = contextOf(request);
      const status = responseValue instanceof Response ? responseValue.status : Number(set.status) || 200;
      if (!record.done) return log(logLine(record, status));
      // A streamed page is logged when it has finished rendering, so late errors join its line; one the
      // visitor cut off is logged as such, not as the 200 its headers said.
      const end = () => log(logLine(record, request.signal.aborted ? CLIENT_CLOSED : status));
      record.done.then(end, end);
    });
}
