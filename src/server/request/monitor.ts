// monitor.ts: the hooks monitoring puts around a request and the steps of a page; without them requests run bare.
import type { Server } from "bun";
import type { RequestRecord } from "./context.ts";

/** A page's steps; `fallback` renders the error or outcome page after the page's own render failed. */
export type PageStep = "loader" | "action" | "render" | "fallback";

/** What the browser needs to continue the server's trace. */
export interface TraceHeaders {
  "sentry-trace": string;
  baggage?: string;
}

export interface RequestMonitor {
  /** Every request, in a scope of its own: its own trace id, and the request on the events it causes. */
  request?<T>(request: Request, server: Server<unknown> | null, handle: () => T): T;
  /**
   * A request the app's routes answer (a page, page data, an API route), until its last streamed byte
   * (`record.done`): release health, its transaction. The route and `done` are read once the request is answered.
   */
  routed?(request: Request, record: RequestRecord, handle: () => Promise<Response>): Promise<Response>;
  /** One step of a page, as a span of the page's transaction. */
  step?<T>(step: PageStep, route: string, run: () => T): T;
  /** The page's trace for the browser to continue, when the page is traced. */
  traceHeaders?(): TraceHeaders | undefined;
}

export function monitorStep<T>(monitor: RequestMonitor | undefined, step: PageStep, route: string, run: () => T): T {
  return monitor?.step ? monitor.step(step, route, run) : run();
}

/**
 * A monitor whose request and page hooks wait for `current()`: error monitoring starts a moment after the
 * server listens, and the requests of that moment run bare. Steps and trace headers only matter with
 * tracing, which starts before the server does.
 */
export function lateMonitor(current: () => RequestMonitor | undefined): RequestMonitor {
  return {
    request(request, server, handle) {
      const monitor = current();
      return monitor?.request ? monitor.request(request, server, handle) : handle();
    },
    routed(request, record, handle) {
      const monitor = current();
      return monitor?.routed ? monitor.routed(request, record, handle) : handle();
    },
  };
}

/** `headers`, plus the page's trace when it is traced: page data hands it to the browser's navigation. */
export function withTraceHeaders(
  headers: Record<string, string>,
  monitor: RequestMonitor | undefined,
): Record<string, string> {
  const trace = monitor?.traceHeaders?.();
  return trace ? { ...headers, ...trace } : headers;
}
