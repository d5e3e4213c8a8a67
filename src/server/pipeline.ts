// pipeline.ts: one request's way through the server, in the order it runs. It is the app's one wrap around
// Elysia's routing (create-app.ts); each step is a plain function in the folder of its concern, and
// docs/explanation/request-flow.md lists these lines in this order (test/server/pipeline.test.ts holds it to them).
import type { AnyElysia } from "elysia";
import { parse } from "regexparam";
import type { Logger } from "./monitoring/logger.ts";
import { logRequest } from "./monitoring/request-log.ts";
import type { RequestScope, Route } from "./monitoring/request-scope.ts";
import { hostRefusal } from "./http/host-check.ts";
import { contextOf, type ContextOptions, type RequestContext } from "./request/context.ts";
import { addMissingHeaders } from "./request/headers.ts";

interface PipelineSteps {
  /** What every request's context is made with. */
  readonly context: ContextOptions;
  /** Whether a path is the pages' own: no other route of the server answers it (pagePaths below). */
  readonly isPagePath: (path: string) => boolean;
  /** A page path's public file or prerendered page, or undefined when the app answers (prerender/stored-step.ts). */
  readonly stored: (context: RequestContext) => Response | Promise<Response> | undefined;
  /** Sentry's request scope around the routing, and a page's or an API request's transaction (monitoring/request-scope.ts). */
  readonly scope: RequestScope;
  /** The response to what the scope threw outside Elysia's own error hook (a monitor that broke): error-response.ts. */
  readonly failed: (context: RequestContext, error: unknown) => Response;
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
  const refused = hostRefusal(request);
  if (refused) return sent(steps, context, refused);
  const page = steps.isPagePath(context.path);
  // A file or a prerendered page: nothing of the app runs, so neither Sentry's scope nor Elysia's routing does.
  const stored = page ? steps.stored(context) : undefined;
  if (stored) return sent(steps, context, stored);
  // Elysia's routing (health, assets, monitoring, the API, the pages), inside Sentry's request scope.
  const response = guarded(steps, context, () => steps.scope(context, route, page));
  return sent(steps, context, response);
}

/** `run`'s response, or the error response to what it threw: a request always gets its answer and its line. */
function guarded(
  steps: PipelineSteps,
  context: RequestContext,
  run: () => Response | Promise<Response>,
): Response | Promise<Response> {
  try {
    const response = run();
    return response instanceof Promise ? response.catch((error: unknown) => steps.failed(context, error)) : response;
  } catch (error) {
    return steps.failed(context, error);
  }
}

/** The way out of every request, once its response is there: the headers each response carries, then its log line. */
function sent(
  steps: PipelineSteps,
  context: RequestContext,
  response: Response | Promise<Response>,
): Response | Promise<Response> {
  if (response instanceof Promise) return response.then((r) => sent(steps, context, r));
  addMissingHeaders(response, steps.headers);
  addMissingHeaders(response, [["x-request-id", context.id]]);
  logRequest(steps.log, context, response.status);
  return response;
}

/** The pages' catch-all (`*`, which Elysia lists as `/*`): every other route answers its paths before it. */
const PAGES_ROUTES = new Set(["*", "/*"]);

/**
 * Whether a path is the pages': none of the server's other routes (health, assets, the tunnel, the API, whatever
 * an app's API plugin adds) answers it. Read on first use, once the server has all its routes; one pattern for
 * them all, so one test per request rather than one per route.
 */
export function pagePaths(routes: () => AnyElysia["routes"]): (path: string) => boolean {
  let others: RegExp | undefined;
  return (path) => {
    others ??= new RegExp(
      routes()
        .filter((r) => !PAGES_ROUTES.has(r.path))
        .map((r) => `(?:${parse(r.path).pattern.source})`)
        .join("|") || "(?!)",
      "i",
    );
    return !others.test(path);
  };
}
