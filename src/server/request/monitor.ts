// monitor.ts: the hooks monitoring puts around a request and the steps of a page; without them requests run bare.
import type { Server } from "bun";
import { Elysia } from "elysia";
import { isApiPath } from "../api/api.ts";
import { requestPath } from "../http/host-check.ts";
import { recordOf, type RequestRecord } from "./context.ts";

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
   * (`record().done`): release health, its transaction. The record is read once the request is answered.
   */
  routed?(request: Request, record: () => RequestRecord, handle: () => Promise<Response>): Promise<Response>;
  /** One step of a page, as a span of the page's transaction. */
  step?<T>(step: PageStep, route: string, run: () => T): T;
  /** The page's trace for the browser to continue, when the page is traced. */
  traceHeaders?(): TraceHeaders | undefined;
}

/**
 * Runs every request of the app inside `monitor.request`, around Elysia's whole handler (its `onError`
 * too, so a handler error is captured in the request's scope), but those `bare` says are static answers.
 * An API request is also `monitor.routed` as a whole, its error answer included (the pages call it
 * themselves, past their static answers). Nothing is added without a monitor.
 */
export function requestScopePlugin(monitor: RequestMonitor | undefined, bare: (request: Request) => boolean = () => false) {
  const plugin = new Elysia({ name: "brisk:request-scope" });
  const scope = monitor?.request?.bind(monitor);
  if (!scope) return plugin;
  // The server is known once listening; the socket's address is the visitor's when no proxy is trusted.
  let server: Server<unknown> | null = null;
  return plugin
    .onStart((app) => {
      server = app.server;
    })
    .wrap((handle, request) => {
      if (bare(request)) return handle;
      if (!monitor?.routed || !isApiPath(requestPath(request.url))) return (...args: unknown[]) => scope(request, server, () => handle(...args));
      const routed = monitor.routed.bind(monitor);
      // The record is the request log's, made in the first hook inside `handle`.
      const record = () => recordOf(request);
      // Elysia types what it wraps as any function; it is its fetch handler, which answers with a Response.
      const answer = (args: unknown[]) => handle(...args) as unknown as Response | Promise<Response>;
      return (...args: unknown[]) => scope(request, server, () => routed(request, record, async () => answer(args)));
    });
}

export function monitorPage(
  monitor: RequestMonitor | undefined,
  request: Request,
  record: RequestRecord,
  handle: () => Promise<Response>,
): Promise<Response> {
  return monitor?.routed ? monitor.routed(request, () => record, handle) : handle();
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
export function withTraceHeaders(headers: Record<string, string>, monitor: RequestMonitor | undefined): Record<string, string> {
  const trace = monitor?.traceHeaders?.();
  return trace ? { ...headers, ...trace } : headers;
}
