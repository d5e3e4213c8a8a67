// pages-route.ts: whether a path is the pages' to answer: no other route of the server (health, assets, the
// tunnel, the API) matches it, so Elysia would hand it to the pages' catch-all.
import type { AnyElysia } from "elysia";
import { parse } from "regexparam";

/** The pages' catch-all (`*`, which Elysia lists as `/*`): every other route answers its paths before it. */
const PAGES_ROUTES = new Set(["*", "/*"]);

/**
 * `routes` is read on first use: the server's routes are all there once it serves. One pattern for them all
 * (case-insensitive, any method: it may call a path another route's, never the reverse), one test per request.
 */
export function pagesPathTest(routes: () => AnyElysia["routes"]): (path: string) => boolean {
  let otherRoutes: RegExp | undefined;
  return (path) => {
    otherRoutes ??= new RegExp(
      routes()
        .filter((r) => !PAGES_ROUTES.has(r.path))
        .map((r) => `(?:${parse(r.path).pattern.source})`)
        .join("|") || "(?!)",
      "i",
    );
    return !otherRoutes.test(path);
  };
}
