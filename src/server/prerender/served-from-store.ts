// served-from-store.ts: which requests get a stored page, and their answer from the request's first hook. Nothing
// of the app's runs for them, so they are left out of Sentry's request scope (about a third of a stored answer's
// time) and answered before Elysia routes them and runs its per-route hooks, which the ceiling has none of.
import { Elysia } from "elysia";
import { hostProblem } from "../http/host-check.ts";
import { publicFileAt, type PublicFiles } from "../assets/public-files.ts";
import type { Logger } from "../monitoring/logger.ts";
import { logLine } from "../monitoring/request-log.ts";
import { contextOf, type ContextOptions, type RequestContext } from "../request/context.ts";
import { pageTarget } from "../request/page-target.ts";
import type { StoredResponses } from "./serve.ts";

/** Whether a GET or HEAD of a page gets a stored response: nothing of the app's runs for it. */
function isStoredResponse(context: RequestContext, prerendered: StoredResponses): boolean {
  const page = pageTarget(context);
  return !(page instanceof Response) && prerendered.has(page.url, page.isData);
}

/** The stored answer to a GET or HEAD, if it has one. */
function storedResponse(context: RequestContext, prerendered: StoredResponses): Response | undefined {
  const page = pageTarget(context);
  return page instanceof Response ? undefined : prerendered.response(context.request, page.url, context, page.isData);
}

/**
 * Whether the pages would answer a request from the store. Asked by the request scope, which wraps Elysia's
 * handler, before any hook, and again by the first hook inside it: the answer is kept on the request's context,
 * which the first to ask makes with the server's `options`. `forPages` says whether a path is the pages'.
 */
export function servedFromStore(
  forPages: (path: string) => boolean,
  prerendered: StoredResponses | undefined,
  options: ContextOptions,
): (request: Request) => boolean {
  // Cheapest first: the method, then the other routes' patterns (an API or tunnel path is no unmatched page,
  // whatever the stored not-found page would say; an asset never gets its URL parsed here), then the pages.
  const decide = (context: RequestContext) =>
    prerendered !== undefined &&
    (context.method === "GET" || context.method === "HEAD") &&
    forPages(context.path) &&
    isStoredResponse(context, prerendered);
  return (request) => {
    const context = contextOf(request, options);
    return (context.stored ??= decide(context));
  };
}

interface StoredAnswerDeps {
  isStored: (request: Request) => boolean;
  publicFiles: PublicFiles;
  log: Logger;
}

/**
 * Answers a stored page in the request's first hooks, after the request log's record: Elysia then runs no
 * route, no `mapResponse` and no `onAfterResponse`, so the answer carries its request id and security headers
 * itself (serve.ts) and its log line is written here. A request with a bad Host, or for a public file, goes on
 * to the checks and the file the pages serve.
 */
export function storedAnswerPlugin(prerendered: StoredResponses | undefined, { isStored, publicFiles, log }: StoredAnswerDeps) {
  const plugin = new Elysia({ name: "brisk:stored-answers" });
  if (!prerendered) return plugin;
  return plugin.onRequest(function answerStored({ request }) {
    if (!isStored(request) || hostProblem(request)) return;
    const record = contextOf(request);
    if (publicFileAt(publicFiles, record.path)) return;
    const response = storedResponse(record, prerendered);
    if (response) log(logLine(record, response.status));
    return response;
  });
}
