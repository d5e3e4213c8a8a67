// prerendered-plugin.ts: which requests get a prerendered page, and their response from the request's first
// hook. Nothing of the app's runs for them, so they are left out of Sentry's request scope (a large share of a
// prerendered response's time: bench/README.md, prerendered pages against the static ceiling) and answered
// before Elysia routes them and runs its per-route hooks, which the ceiling has none of.
import { Elysia, type AnyElysia } from "elysia";
import { parse } from "regexparam";
import { hostProblem } from "../http/host-check.ts";
import { publicFileAt, type PublicFiles } from "../assets/public-files.ts";
import type { Logger } from "../monitoring/logger.ts";
import { logLine } from "../monitoring/request-log.ts";
import { contextOf, type ContextOptions, type RequestContext } from "../request/context.ts";
import { pageTarget } from "../request/page-target.ts";
import type { PrerenderedResponses } from "./prerendered-responses.ts";

/** Whether a GET or HEAD of a page gets a prerendered response: nothing of the app's runs for it. */
function hasPrerendered(context: RequestContext, prerendered: PrerenderedResponses): boolean {
  const page = pageTarget(context);
  return !(page instanceof Response) && prerendered.has(page.url, page.isData);
}

/** The prerendered response to a GET or HEAD, if it has one. */
function prerenderedResponse(context: RequestContext, prerendered: PrerenderedResponses): Response | undefined {
  const page = pageTarget(context);
  return page instanceof Response ? undefined : prerendered.response(context.request, page.url, context, page.isData);
}

/** The pages' catch-all (`*`, which Elysia lists as `/*`): every other route answers its paths before it. */
const PAGES_ROUTES = new Set(["*", "/*"]);

/**
 * Whether a request gets a prerendered page. Asked by the request scope, which wraps Elysia's
 * handler, before any hook, and again by the first hook inside it: the decision is kept on the request's context,
 * which the first to ask makes with the server's `options`.
 */
export function prerenderedCheck(
  routes: () => AnyElysia["routes"],
  prerendered: PrerenderedResponses | undefined,
  options: ContextOptions,
): (request: Request) => boolean {
  // Read on first use: the server's routes are all there once it serves. One pattern for them all: one test
  // per request rather than one per route.
  let ownRoutes: RegExp | undefined;
  const routedElsewhere = (path: string) => {
    ownRoutes ??= new RegExp(
      routes()
        .filter((r) => !PAGES_ROUTES.has(r.path))
        .map((r) => `(?:${parse(r.path).pattern.source})`)
        .join("|") || "(?!)",
      "i",
    );
    return ownRoutes.test(path);
  };
  // Cheapest first: the method, then the other routes' patterns (an API or tunnel path is no unmatched page,
  // whatever the prerendered not-found page would say; an asset never gets its URL parsed here), then the pages.
  const decide = (context: RequestContext) =>
    prerendered !== undefined &&
    (context.method === "GET" || context.method === "HEAD") &&
    !routedElsewhere(context.path) &&
    hasPrerendered(context, prerendered);
  return (request) => {
    const context = contextOf(request, options);
    return (context.prerendered ??= decide(context));
  };
}

interface PrerenderedPluginDeps {
  isPrerendered: (request: Request) => boolean;
  publicFiles: PublicFiles;
  log: Logger;
}

/**
 * Serves a prerendered page in the request's first hooks, after the request log's record: Elysia then runs no
 * route, no `mapResponse` and no `onAfterResponse`, so the response carries its request id and security
 * headers itself (prerendered-responses.ts) and its log line is written here. A request with a bad Host, or
 * for a public file, goes on to the checks and the file the pages serve.
 */
export function prerenderedPlugin(prerendered: PrerenderedResponses | undefined, { isPrerendered, publicFiles, log }: PrerenderedPluginDeps) {
  const plugin = new Elysia({ name: "brisk:prerendered" });
  if (!prerendered) return plugin;
  return plugin.onRequest(function respondPrerendered({ request }) {
    if (!isPrerendered(request) || hostProblem(request)) return;
    const record = contextOf(request);
    if (publicFileAt(publicFiles, record.path)) return;
    const response = prerenderedResponse(record, prerendered);
    if (response) log(logLine(record, response.status));
    return response;
  });
}
