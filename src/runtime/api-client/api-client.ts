// api-client.ts: the app's API routes from a component, through Elysia's typed client (Eden treaty): typed
// bodies, answers and failures, on the page's own origin. Only the chunk of a page that calls it carries Eden:
// the package.json beside it says this folder has no side effects (index.ts says why).
import { treaty, type Treaty } from "@elysiajs/eden/treaty2";
import type { AnyElysia } from "elysia";
import type { ApiClient } from "../api-answers.ts";

/**
 * `apiClient<typeof api>()`, with the type imported type-only from the app's `*.server.ts` module:
 * `client.api.guestbook.post({ name, message })` resolves to `{ data }` on a 2xx, else to `{ error }` with
 * its status and JSON. Safe to create at a module's top level: it calls nothing until asked, and then always
 * this page's origin (`location.origin`), with the visitor's cookies; the browser's own Origin and
 * Sec-Fetch-Site headers pass the server's same-origin rule. A call made on the server (while a page
 * renders) rejects before any fetch: a component calls the API from an effect or an event handler, and a
 * loader reads on the server what the first render needs.
 */
export function apiClient<App extends AnyElysia>(): ApiClient<App> {
  // Paths are joined on the page's origin when called, not when created, so the client can be made anywhere.
  return edenClient<App>("", { fetcher: sameOrigin, onRequest: refuseOnServer });
}

/**
 * Eden's client for `App` on `domain`, as Brisk's clients use it (the page's and brisk/test's): its paths kept as
 * they are, and a JSON string kept the string its type says (Eden would turn any date-like one, a visitor's message
 * "2026-05-01" too, into a Date).
 */
export function edenClient<App extends AnyElysia>(
  domain: string,
  config: Pick<Treaty.Config, "fetcher" | "headers" | "onRequest">,
): ApiClient<App> {
  const client = treaty<App>(domain, { ...config, keepDomain: true, parseDate: false });
  // Only the types differ: Brisk's failures beside each route's own answers.
  return client as unknown as ApiClient<App>;
}

/** Eden hands it the path and query it built. (Bun's `typeof fetch` has a `preconnect` Eden never calls.) */
const sameOrigin = ((path: string, init?: RequestInit) => fetch(new URL(path, location.origin), init)) as typeof fetch;

/** Eden's onRequest runs before its fetch and outside the catch that would make a thrown error a 503 answer. */
function refuseOnServer(path: string): void {
  if (typeof location === "undefined") {
    throw new Error(
      `apiClient: ${path} was called on the server; call the API from an effect or an event handler, and read what a page renders first in its loader`,
    );
  }
}
