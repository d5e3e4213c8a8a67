// request-scope.ts: the request pipeline's scope step: each request's routing runs inside its monitor's scope
// (Sentry's isolation scope), and an API request as one routed request too.
import type { Server } from "bun";
import type { RequestContext } from "../request/context.ts";
import type { RequestMonitor } from "../request/monitor.ts";
import { isApiPath } from "../request/request-path.ts";

/** Elysia's routing of one request: its handler, hooks and `onError`, whatever they answer. */
export type Route = (request: Request) => Response | Promise<Response>;

export type RequestScope = (context: RequestContext, route: Route) => Response | Promise<Response>;

/**
 * Runs `route` inside `monitor.request`, its `onError` too, so a handler's error is captured in the request's
 * scope. An API request is also `monitor.routed` as a whole, its error response included (the pages call it
 * themselves, past their public files). Nothing is added without a monitor. `server`: known once listening; the
 * socket's address is the visitor's when no proxy is trusted.
 */
export function requestScope(monitor: RequestMonitor | undefined, server: () => Server<unknown> | null): RequestScope {
  const scope = monitor?.request?.bind(monitor);
  if (!scope) return (context, route) => route(context.request);
  const routed = monitor?.routed?.bind(monitor);
  const inScope = (context: RequestContext, route: Route) => {
    const { request } = context;
    if (!routed || !isApiPath(context.path)) return route(request);
    return routed(request, () => context, async () => route(request));
  };
  return (context, route) => scope(context.request, server(), () => inScope(context, route));
}
