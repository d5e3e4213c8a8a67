// api-client.ts (brisk/test): Eden treaty's typed client for a served app's API, as a page of the app calls it.
import type { AnyElysia } from "elysia";
import type { ApiClient } from "../../runtime/api-answers.ts";
import { edenClient } from "../../runtime/api-client/api-client.ts";
import { IN_PROCESS_ORIGIN, type ListeningApp, type ServedApp } from "./serve.ts";

/**
 * `apiClientFor<typeof api>(served)`: `client.api.guestbook.post({ name, message })` with typed bodies and
 * answers, Brisk's failures among them. A listening app is called on its socket, a served one through its
 * handler with no socket. Every call carries the app's own origin in `Origin`, as a browser's fetch from one of
 * its pages does, so writes pass the same-origin rule; a call's own `headers` (a cookie, another Origin) are
 * added over it.
 */
export function apiClientFor<App extends AnyElysia>(served: ServedApp | ListeningApp): ApiClient<App> {
  const origin = "origin" in served ? served.origin : IN_PROCESS_ORIGIN;
  return edenClient<App>(origin, {
    headers: { origin },
    fetcher: ("origin" in served
      ? fetch
      : (url: string, init?: RequestInit) => served.handle(new Request(url, init))) as typeof fetch,
  });
}
