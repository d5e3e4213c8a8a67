// request-log.ts: gives every request an id and a record, and writes its one JSON log line at the end.
import { Elysia } from "elysia";
import { requestPath } from "./host-check.ts";
import type { Logger } from "./logger.ts";
import { createRequestRecord, type RequestRecord } from "./request-record.ts";
import { addHeaders } from "./response-headers.ts";

/**
 * Gives each request its record. Elysia applies a plugin of one name once, the first it meets: createApp
 * meets requestLogPlugin's, with the configured trust; plugins that only need `record` `.use()` the default.
 */
function requestRecordPlugin(trustIncomingId: boolean) {
  return (
    new Elysia({ name: "brisk:request-record" })
      // The path from the URL, not Elysia's `path`, which misreads short hosts (host-check.ts).
      .derive({ as: "global" }, ({ request }) => ({ record: createRequestRecord(request, requestPath(request.url), trustIncomingId) }))
      .mapResponse({ as: "global" }, (ctx) => addHeaders(ctx, [["x-request-id", ctx.record.id]]))
  );
}

export const requestRecord = requestRecordPlugin(false);

/** nginx's status for a request whose client closed the connection before the response was complete. */
const CLIENT_CLOSED = 499;

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

/** `trustProxy`: keep an incoming X-Request-Id, which only a proxy we trust may set. */
export function requestLogPlugin(log: Logger, { trustProxy }: { trustProxy: boolean }) {
  return new Elysia({ name: "brisk:request-log" })
    .use(requestRecordPlugin(trustProxy))
    .onAfterResponse({ as: "global" }, ({ record, request, responseValue, set }) => {
      const status = responseValue instanceof Response ? responseValue.status : Number(set.status) || 200;
      if (!record.done) return log(logLine(record, status));
      // A streamed page is logged when it has finished rendering, so late errors join its line; one the
      // visitor cut off is logged as such, not as the 200 its headers said.
      const end = () => log(logLine(record, request.signal.aborted ? CLIENT_CLOSED : status));
      record.done.then(end, end);
    });
}
