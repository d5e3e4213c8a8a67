// api-middleware.ts: the pages' route middleware for the app's API routes (`brisk/server`): the same functions
// (a `requireUser` guard, a context filled once) run before the handler, and `next()` resolves with the
// handler's response, as on a page.
//
//   export const api = new Elysia({ prefix: "/api" })
//     .use(apiMiddleware(requireSignedIn))
//     .get("/notes", ({ context }) => notesOf(context.get(userContext)));
//
// This plugin only marks the routes registered after it; the API plugin runs their middleware (api-chain.ts).
import { Elysia } from "elysia";
import type { Middleware } from "../../runtime/route.ts";
import { markApiMiddleware, middlewareContext } from "./api-chain.ts";

/** Middleware for every API route registered after it on the instance that uses it, and on instances it mounts. */
export function apiMiddleware(...middleware: readonly Middleware[]) {
  // Its own function per call: the mark Brisk finds among a route's hooks.
  function apiContext({ request }: { request: Request }) {
    return { context: middlewareContext(request, apiContext) };
  }
  markApiMiddleware(apiContext, middleware);
  // No name: Elysia applies a named plugin once per name and seed, and a seed of functions serialises to the
  // same `[null]` for every guard, so a second apiMiddleware would be skipped without a word.
  return new Elysia().derive({ as: "scoped" }, apiContext);
}
