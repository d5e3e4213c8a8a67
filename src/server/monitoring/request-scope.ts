// request-scope.ts: the request pipeline's scope step: each request's routing runs inside its monitor's scope
// (Sentry's isolation scope), and a page's or an API request's as one routed request too.
import type { Server } from "bun";
import type { RequestContext } from "../request/context.ts";
import type { RequestMonitor } from "../request/monitor.ts";
import { isApiPath } from "../request/request-path.ts";

/** Elysia's routing of one request: its handler, hooks and `onError`, whatever they answer. */
export type Route = (request: Request) => Response | Promise<Response>;

/** `page`: the path is the pages' (pipeline.ts), so the app's routes answer it as they answer an API path. */
export type RequestScope = (context: RequestContext, route: Route, page: boolean) => Response | Promise<Response>;

/**
 * Runs `route` inside `monitor.request`, its `onError` too, so a handler's error is captured in the request's
 * scope. A page or an API request is also `monitor.routed` as a whole, its error response included: release
 * health and its transaction; health checks, assets and the tunnel are not (public files and prerendered pages
 * never get here). Nothing is added without a monitor. `server`: known once listening; the socket's address is
 * the visitor's when no proxy is trusted.
 */
export function requestScope(monitor: RequestMonitor | undefined, server: () => Server<unknown> | null): RequestScope {
  const routed = monitor?.routed?.bind(monitor);
  const inScope: RequestScope = (context, route, page) => {
    const { request } = context;
    if (!routed || !(page || isApiPath(context.path))) return route(request);
    return routed(request, context, async () => route(request));
  };
  const scope = monitor?.request?.bind(monitor);
  if (!scope) return inScope;
  return (context, route, page) => scope(context.request, server(), () => inScope(context, route, page));
}
