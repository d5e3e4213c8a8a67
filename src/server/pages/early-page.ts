// early-page.ts: a production server's pages answered from the request's first hooks, as its stored pages are:
// Elysia then routes nothing and runs none of its per-route hooks for them, so what those hooks add (the Host
// check, the request id, the common security headers, the error answer and the log line) is added here.
import { Elysia, type AnyElysia } from "elysia";
import { hostProblem } from "../http/host-check.ts";
import type { Logger } from "../monitoring/logger.ts";
import { logAnswer } from "../monitoring/request-log.ts";
import { contextOf, type RequestContext } from "../request/context.ts";
import type { PageDeps } from "./page-request.ts";
import { pageAnswer } from "./pages.ts";

export interface EarlyPageDeps {
  /** Whether a path is the pages' (no other route matches it). */
  forPages: (path: string) => boolean;
  /** The headers every response carries (security-headers.ts). */
  common: Readonly<Record<string, string>>;
  /** What the server's error hook answers to what the pages' route threw (error-response.ts). */
  failed: (request: Request, error: unknown) => Response;
  log: Logger;
}

/**
 * Whether an app's API plugin put hooks on the whole server: a page answered early would skip them, so such a
 * server routes its pages as before.
 */
export function hasGlobalHooks(api: AnyElysia | undefined): boolean {
  if (!api) return false;
  // Elysia keeps them out of its types: its `wrap` functions, and each event's hooks with their scope.
  const { extender, event } = api as unknown as { extender: { higherOrderFunctions: unknown[] }; event: Record<string, unknown> };
  if (extender.higherOrderFunctions.length) return true;
  return Object.entries(event).some(
    ([name, hooks]) => Array.isArray(hooks) && hooks.length > 0 && (name === "request" || hooks.some((h: { scope?: string }) => h.scope === "global")),
  );
}

/**
 * Answers the pages' requests in the first hooks, after the request log's record and the stored pages (whose
 * requests never get here), inside the request's Sentry scope (which wraps every hook). A request with a bad
 * Host goes on to the route and the Host check's 400.
 */
export function earlyPagePlugin(deps: PageDeps, early: EarlyPageDeps) {
  const headers = Object.entries(early.common);
  const finish = (record: RequestContext, response: Response) => {
    const target = response.headers;
    for (const [name, value] of headers) if (!target.has(name)) target.set(name, value);
    if (!target.has("x-request-id")) target.set("x-request-id", record.id);
    logAnswer(early.log, record, response.status);
    return response;
  };
  const fail = (record: RequestContext, error: unknown) => finish(record, early.failed(record.request, error));
  const answer = (request: Request): Promise<Response> | undefined => {
    const record = contextOf(request);
    if (!early.forPages(record.path) || hostProblem(request)) return undefined;
    let answered: Response | Promise<Response>;
    try {
      answered = pageAnswer(record, deps);
    } catch (error) {
      return Promise.resolve(fail(record, error));
    }
    return Promise.resolve(answered).then(
      (response) => finish(record, response),
      (error: unknown) => fail(record, error),
    );
  };
  // Not async, and returning a name rather than a call: Elysia reads a hook's source to decide whether to
  // await it, and an awaited first hook would make every request's handler async (a stored page's too).
  return new Elysia({ name: "brisk:early-pages" }).onRequest(function answerPage({ request }) {
    const page = answer(request);
    return page;
  });
}
