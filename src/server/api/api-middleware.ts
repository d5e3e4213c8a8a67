// api-middleware.ts: the pages' route middleware for the app's API routes (`brisk/server`): the same functions
// (a `requireUser` guard, a context filled once) run before the handler, and `next()` resolves with the
// handler's response, as on a page.
//
//   export const api = new Elysia({ prefix: "/api" })
//     .use(apiMiddleware(requireSignedIn))
//     .get("/notes", ({ context }) => notesOf(context.get(userContext)));
//
// Elysia runs a handler between hooks, not inside a function a middleware could wrap: the chain runs in the
// before-handle hook until its innermost `next()`, the handler runs, and the response is handed to that `next()`
// in the map-response hook, which then waits for the chain to finish.
import { Elysia } from "elysia";
import { mapResponse } from "elysia/adapter/bun/handler";
import { RouterContextProvider } from "../../runtime/router-context.ts";
import type { Middleware } from "../../runtime/route.ts";
import { requestCookies } from "./request-cookies.ts";
import { contextOf } from "../request/context.ts";
import { appHeaderName } from "../request/headers.ts";
import { runChain } from "../request/middleware.ts";

/** Middleware for every API route registered after it on the instance that uses it. */
export function apiMiddleware(...middleware: readonly Middleware[]) {
  return new Elysia({ name: "brisk:api-middleware", seed: middleware })
    .derive({ as: "scoped" }, function apiContext() {
      return { context: new RouterContextProvider() };
    })
    .onBeforeHandle({ as: "scoped" }, async function runApiMiddleware({ request, params, context, set }) {
      const url = new URL(request.url);
      const args = {
        request,
        params: params as Record<string, string>,
        url,
        search: url.searchParams,
        headers: request.headers,
        cookies: requestCookies(request),
        setHeader(name: string, value: string) {
          set.headers[appHeaderName(name)] = value;
        },
        signal: request.signal,
        context,
      };
      const response = Promise.withResolvers<Response>();
      const reached = Promise.withResolvers<"handler">();
      const chain = runChain(
        middleware.map((run) => ({ run, depth: 0, args: () => args })),
        (failure) => {
          // Thrown on to the outer middleware, then to the server's error hook: an outcome is its JSON response.
          if (failure) return Promise.reject(failure.error);
          reached.resolve("handler");
          return response.promise;
        },
      );
      const first = await Promise.race([reached.promise, chain]);
      if (first === "handler") {
        contextOf(request).apiChain = { response, chain };
        return;
      }
      // The chain answered without the handler (a middleware returned a Response of its own).
      return first;
    })
    .mapResponse({ as: "scoped" }, async function handResponseToMiddleware({ request, responseValue, set }) {
      const context = contextOf(request);
      const pending = context.apiChain;
      if (!pending) return;
      context.apiChain = undefined;
      pending.response.resolve(responseValue instanceof Response ? responseValue : mapResponse(responseValue, set, request));
      return pending.chain;
    })
    .onAfterResponse({ as: "scoped" }, function endApiMiddleware({ request }) {
      // The handler failed (the error hook answered): the chain's `next()` never gets a response, so it ends
      // here with the failure, and whatever the middleware does after it (a finally) still runs.
      const context = contextOf(request);
      const pending = context.apiChain;
      if (!pending) return;
      context.apiChain = undefined;
      pending.chain.catch(() => {});
      pending.response.reject(new Error("the API route failed; its error response was sent"));
    });
}
