// request-scope.ts: runs each request of the app inside its monitor's scope (Sentry's isolation scope), around
// Elysia's whole handler, and an API request as a routed request too; static responses run bare.
import type { Server } from "bun";
import { Elysia } from "elysia";
import { contextOf } from "../request/context.ts";
import type { RequestMonitor } from "../request/monitor.ts";
import { isApiPath, requestPath } from "../request/request-path.ts";

/**
 * Runs every request of the app inside `monitor.request`, around Elysia's whole handler (its `onError`
 * too, so a handler error is captured in the request's scope), but those `bare` says are static responses.
 * An API request is also `monitor.routed` as a whole, its error response included (the pages call it
 * themselves, past their static responses). Nothing is added without a monitor.
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
      const record = () => contextOf(request);
      // Elysia types what it wraps as any function; it is its fetch handler, which returns a Response.
      const respond = (args: unknown[]) => handle(...args) as unknown as Response | Promise<Response>;
      return (...args: unknown[]) => scope(request, server, () => routed(request, record, async () => respond(args)));
    });
}
