// pipeline.ts: one request's way through the server, in the order it runs. It is the app's one wrap around
// Elysia's routing (create-app.ts); each step is a plain function in the folder of its concern, and
// docs/explanation/request-flow.md lists these lines in this order (test/server/pipeline.test.ts holds it to them).
import type { Logger } from "./monitoring/logger.ts";
import { logRequest } from "./monitoring/request-log.ts";
import type { RequestScope, Route } from "./monitoring/request-scope.ts";
import { hostRefusal } from "./http/host-check.ts";
import { contextOf, type ContextOptions, type RequestContext } from "./request/context.ts";
import { addMissingHeaders } from "./request/headers.ts";

export interface PipelineSteps {
  /** What every request's context is made with. */
  readonly context: ContextOptions;
  /** A prerendered page's response, or undefined when the app answers (prerender/prerendered-step.ts). */
  readonly prerendered: (context: RequestContext) => Response | undefined;
  /** Sentry's request scope around the routing (monitoring/request-scope.ts). */
  readonly scope: RequestScope;
  /** The security headers every response carries (http/security-headers.ts). */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly log: Logger;
}

/**
 * The wrap (Elysia's `.wrap`): Elysia hands it its routing and the request, and calls what it returns with the
 * request. Elysia types both as any function; its routing answers a Response, whatever the handler returned.
 */
export function requestPipeline(steps: PipelineSteps) {
  return (route: (...args: unknown[]) => unknown, request: Request) => () => serve(steps, request, route as Route);
}

/** One request, top to bottom. */
function serve(steps: PipelineSteps, request: Request, route: Route): Response | Promise<Response> {
  // Its id, start time and path: what every later step and the log line read.
  const context = contextOf(request, steps.context);
  // Before any body is read or any route runs: a Host no URL can be routed by is a 400.
  const early = hostRefusal(request) ?? steps.prerendered(context);
  if (early) return sent(steps, context, early);
  // Elysia's routing (health, assets, monitoring, the API, the pages), inside Sentry's request scope.
  const response = steps.scope(context, route);
  return response instanceof Promise ? response.then((r) => sent(steps, context, r)) : sent(steps, context, response);
}

/** The way out of every request: the headers each response carries, then its log line. */
function sent(steps: PipelineSteps, context: RequestContext, response: Response): Response {
  addMissingHeaders(response, steps.headers);
  addMissingHeaders(response, [["x-request-id", context.id]]);
  logRequest(steps.log, context, response.status, context.request.signal);
  return response;
}
