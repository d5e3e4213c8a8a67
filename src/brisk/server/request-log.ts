// request-log.ts: gives every request an id and a record, and writes its one JSON log line at the end.
import { Elysia } from "elysia";
import type { Logger } from "./logger.ts";
import { createRequestRecord, type RequestRecord } from "./request-record.ts";
import { addHeaders } from "./response-headers.ts";

/** Plugins that need the request's record `.use()` this; Elysia applies it once by its name. */
export const requestRecord = new Elysia({ name: "brisk:request-record" })
  .derive({ as: "global" }, ({ request, path }) => ({ record: createRequestRecord(request, path) }))
  .mapResponse({ as: "global" }, (ctx) => addHeaders(ctx, [["x-request-id", ctx.record.id]]));

export function logLine(record: RequestRecord, status: number): Parameters<Logger>[0] {
  const [first] = record.errors;
  const line: Parameters<Logger>[0] = {
    level: status >= 500 || first ? "error" : "info",
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

export function requestLogPlugin(log: Logger) {
  return new Elysia({ name: "brisk:request-log" })
    .use(requestRecord)
    .onAfterResponse({ as: "global" }, ({ record, responseValue, set }) => {
      const status = responseValue instanceof Response ? responseValue.status : Number(set.status) || 200;
      // A streamed page is logged when it has finished rendering, so late errors join its line.
      if (record.done) record.done.then(() => log(logLine(record, status)), () => log(logLine(record, status)));
      else log(logLine(record, status));
    });
}
