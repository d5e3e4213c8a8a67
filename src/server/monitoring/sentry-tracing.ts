// sentry-tracing.ts: page and API transactions named after their route, spans for a page's steps, and the trace handed to the browser.
import * as Sentry from "@sentry/bun";
import { spanIsSampled } from "@sentry/core";
import { NAME_SOURCE, transactionName } from "../../runtime/trace-names.ts";
import { isApiPath, isPageDataPath } from "../request/request-path.ts";
import type { RequestMonitor } from "../request/monitor.ts";

/**
 * What a transaction answered, as its `brisk.request.kind` attribute: a route has one transaction name, and
 * this tells a client navigation's page data (or a JavaScript form post) from the document.
 */
type RequestKind = "document" | "page-data" | "api";
const REQUEST_KIND = "brisk.request.kind";

function requestKind(pathname: string): RequestKind {
  if (isPageDataPath(pathname)) return "page-data";
  return isApiPath(pathname) ? "api" : "document";
}

/**
 * Pages and API routes are traced: documents and API requests always (sampled at SENTRY_TRACES_SAMPLE_RATE),
 * page data only when the browser's navigation sent its trace along, as a part of that navigation. Assets,
 * the tunnel and the health check never reach these hooks. A transaction starts as `GET /the/path`, is
 * renamed to the route pattern (`GET /examples/search`, source `route`) once the route is known, and ends
 * with the last streamed byte.
 */
export function tracingHooks(sampleRate: number): Required<Pick<RequestMonitor, "routed" | "step" | "traceHeaders">> {
  return {
    routed(request, record, handle) {
      const pathname = record.path;
      const kind = requestKind(pathname);
      const continued = request.headers.has("sentry-trace");
      if (kind === "page-data" && !continued) return handle();
      // A new trace is sampled as the SDK would (its random number against the rate), but before any span
      // exists: an unsampled page, nine in ten at 0.1, then costs no span, only the negative decision its
      // trace headers carry to the browser. A continued trace keeps the SDK's own sampling of its parent.
      if (!continued && !sampleNewTrace(sampleRate)) return handle();
      const method = request.method;
      return Sentry.startSpanManual(
        {
          name: `${method} ${pathname}`,
          op: "http.server",
          forceTransaction: true,
          attributes: {
            [NAME_SOURCE]: "url",
            "sentry.origin": "auto.http.brisk",
            "http.request.method": method,
            [REQUEST_KIND]: kind,
          },
        },
        async (span) => {
          let response: Response;
          try {
            response = await handle();
          } catch (error) {
            span.setStatus({ code: 2, message: "internal_error" });
            span.end();
            throw error;
          }
          const { route, done } = record;
          span.updateName(transactionName(method, route));
          span.setAttribute(NAME_SOURCE, "route");
          if (route) span.setAttribute("http.route", route);
          Sentry.setHttpStatus(span, response.status);
          const end = () => span.end();
          if (done) done.then(end, end);
          else end();
          return response;
        },
      );
    },
    step(step, route, run) {
      // An unsampled page (SENTRY_TRACES_SAMPLE_RATE below 1) pays nothing for its steps.
      const page = Sentry.getActiveSpan();
      if (!page || !spanIsSampled(page)) return run();
      return Sentry.startSpan({ name: `${step} ${route}`, op: `function.brisk.${step}` }, run);
    },
    traceHeaders() {
      const data = Sentry.getTraceData();
      const trace = data["sentry-trace"];
      return trace ? { "sentry-trace": trace, ...(data.baggage ? { baggage: data.baggage } : {}) } : undefined;
    },
  };
}

/** Decides the current scope's new trace: sampled when its random number is under the rate, as the SDK does. */
function sampleNewTrace(sampleRate: number): boolean {
  const scope = Sentry.getCurrentScope();
  const context = scope.getPropagationContext();
  const sampled = context.sampleRand < sampleRate;
  if (!sampled) scope.setPropagationContext({ ...context, sampled: false });
  return sampled;
}
