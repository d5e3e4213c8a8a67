// prerendered-step.ts: the request pipeline's prerendered step: which requests a prerendered page answers, and its
// response. Nothing of the app runs for them, so the pipeline sends them before Sentry's request scope and Elysia's
// routing, which the static ceiling has neither of (bench/README.md, prerendered pages against the static ceiling).
import type { AnyElysia } from "elysia";
import { parse } from "regexparam";
import { publicFileAt, type PublicFiles } from "../assets/public-files.ts";
import type { RequestContext } from "../request/context.ts";
import { pageTarget } from "../pages/page-target.ts";
import type { PrerenderedResponses } from "./prerendered-responses.ts";

/** The pages' catch-all (`*`, which Elysia lists as `/*`): every other route answers its paths before it. */
const PAGES_ROUTES = new Set(["*", "/*"]);

/** Whether another route of the server answers a path: read on first use, once the server has all its routes. */
function routedElsewhere(routes: () => AnyElysia["routes"]): (path: string) => boolean {
  // One pattern for them all: one test per request rather than one per route.
  let ownRoutes: RegExp | undefined;
  return (path) => {
    ownRoutes ??= new RegExp(
      routes()
        .filter((r) => !PAGES_ROUTES.has(r.path))
        .map((r) => `(?:${parse(r.path).pattern.source})`)
        .join("|") || "(?!)",
      "i",
    );
    return ownRoutes.test(path);
  };
}

export interface PrerenderedStepDeps {
  /** The server's routes: an API or tunnel path is no unmatched page, whatever the prerendered not-found page says. */
  routes: () => AnyElysia["routes"];
  /** A public file is served at a path the prerendered not-found page would otherwise answer. */
  publicFiles: PublicFiles;
}

/**
 * The prerendered response to a request, or undefined when the app must answer it. Cheapest first: the method,
 * the other routes' patterns (an asset never gets its URL parsed here), the URL, then the stored pages. The
 * response carries its request id and security headers itself (prerendered-responses.ts).
 */
export function prerenderedStep(
  prerendered: PrerenderedResponses | undefined,
  { routes, publicFiles }: PrerenderedStepDeps,
): (context: RequestContext) => Response | undefined {
  if (!prerendered) return () => undefined;
  const elsewhere = routedElsewhere(routes);
  return (context) => {
    if ((context.method !== "GET" && context.method !== "HEAD") || elsewhere(context.path)) return undefined;
    const page = pageTarget(context);
    if (page instanceof Response || publicFileAt(publicFiles, context.path)) return undefined;
    return prerendered.response(context.request, page.url, context, page.isData);
  };
}
