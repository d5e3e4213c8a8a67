// served-from-store.ts: which requests get a stored page: nothing of the app's runs for them, so createApp leaves
// them out of Sentry's request scope, which costs a stored page's answer about a third of its time.
import type { AnyElysia } from "elysia";
import { parse } from "regexparam";
import { requestPath } from "../http/host-check.ts";
import { isStoredResponse } from "../pages/pages.ts";
import type { StoredResponses } from "./serve.ts";

/** The pages' catch-all (`*`, which Elysia lists as `/*`): every other route answers its paths before it. */
const PAGES_ROUTES = new Set(["*", "/*"]);

export function servedFromStore(routes: () => AnyElysia["routes"], prerendered: StoredResponses | undefined): (request: Request) => boolean {
  // Read on first use: the server's routes are all there once it serves.
  let ownRoute: RegExp[] | undefined;
  const answeredElsewhere = (path: string) => {
    ownRoute ??= routes().filter((r) => !PAGES_ROUTES.has(r.path)).map((r) => parse(r.path).pattern);
    return ownRoute.some((pattern) => pattern.test(path));
  };
  // Cheapest first: the method, then the other routes' patterns (an API or tunnel path is no unmatched page,
  // whatever the stored not-found page would say; an asset never gets its URL parsed here), then the pages.
  return (request) =>
    prerendered !== undefined &&
    (request.method === "GET" || request.method === "HEAD") &&
    !answeredElsewhere(requestPath(request.url)) &&
    isStoredResponse(request, prerendered);
}
