// resolve-page.ts: matches a request to a route and runs its action (for a form post) and its loader, before a
// single byte is sent.
import { actionResult } from "../../runtime/action-data.ts";
import { openSettlements, splitDeferred } from "../../runtime/deferred.tsx";
import { showsErrorDetails } from "../../runtime/error-page.ts";
import { Outcome, isOutcome, outcomeInfo } from "../../runtime/outcome.ts";
import { PAGE_DATA_VERSION, type DeferredSettlement, type PageError, type PagePayload } from "../../runtime/page-payload.ts";
import type { Mode } from "../../runtime/app-server.ts";
import type { ActionContext } from "../../runtime/route.ts";
import { monitorStep } from "../monitoring/request-monitor.ts";
import { reportError, type Phase, type RequestRecord } from "../monitoring/request-record.ts";
import type { PageDeps, PageRequest } from "./page-request.ts";
import { requestContext } from "./request-context.ts";

/** One shared outcome for every unmatched path: an Error captures a stack each time it is made. */
const UNMATCHED = new Outcome("not-found");

/** The parts of PageDeps the action and loader steps read. */
export type ResolveDeps = Pick<PageDeps, "match" | "assets" | "mode" | "capture" | "cookies" | "monitor">;

export interface ResolvedPage {
  status: number;
  payload: PagePayload;
  /** Loader data as components read it: streamed values are promises. */
  data: unknown;
  settlements: Array<readonly [string, Promise<DeferredSettlement>]>;
  /** Headers the loader and action set, Set-Cookie included: on the response whatever it is. */
  headers: Array<[string, string]>;
}

/** What a page may show of a server error: the digest always, the message and stack only in development. */
export function publicError(error: unknown, digest: string, mode: Mode): PageError {
  if (!showsErrorDetails(mode)) return { digest, side: "server" };
  const e = error instanceof Error ? error : new Error(String(error));
  return { digest, side: "server", message: e.message, stack: e.stack };
}

/** Ends a page early: an outcome page, a redirect, or the error page with a digest. */
export function failedPage(
  base: Omit<PagePayload, "data" | "deferred">,
  error: unknown,
  record: RequestRecord,
  deps: ResolveDeps,
  phase: Phase,
  headers: Array<[string, string]> = [],
): ResolvedPage {
  const payload: PagePayload = { ...base, data: null, deferred: [] };
  const ended = { data: null, settlements: [], headers };
  if (isOutcome(error)) return { ...ended, status: error.status, payload: { ...payload, outcome: outcomeInfo(error) } };
  const digest = reportError(record, error, phase, deps.capture);
  return { ...ended, status: 500, payload: { ...payload, error: publicError(error, digest, deps.mode) } };
}

/**
 * After a form post a redirect is 303 See Other, so the browser follows with a GET: a 307 or 308 would make
 * it post the form again to the new address.
 */
function afterPost(error: unknown): unknown {
  if (isOutcome(error) && error.kind === "redirect" && (error.status === 307 || error.status === 308)) {
    return new Outcome("redirect", error.location, 303);
  }
  return error;
}

/** Whether the action or loader redirected: nothing renders, the response is the redirect. */
export function redirected(page: ResolvedPage): boolean {
  return page.payload.outcome?.kind === "redirect";
}

export async function resolvePage({ request, url, record, submission }: PageRequest, deps: ResolveDeps): Promise<ResolvedPage> {
  const match = deps.match(url.pathname);
  const base = {
    v: PAGE_DATA_VERSION,
    buildId: deps.assets.manifest.buildId,
    path: url.pathname,
    search: url.search.slice(1),
    route: match?.route.path ?? null,
    assets: deps.assets.forRoute(match?.route),
  } as const;
  if (!match) return failedPage(base, UNMATCHED, record, deps, "match");
  record.route = match.route.path;
  const { route } = match;
  const { ctx, responseHeaders } = requestContext(request, url, match.params, deps.cookies, submission);
  let action: { value: unknown; status: number } | undefined;
  if (submission && route.action) {
    try {
      // ctx carries the submission as its body (see requestContext).
      const { action: run } = route;
      action = actionResult(await monitorStep(deps.monitor, "action", route.path, () => run(ctx as ActionContext)));
    } catch (error) {
      return failedPage(base, afterPost(error), record, deps, "action", responseHeaders());
    }
  }
  let raw: unknown;
  try {
    // After an action the loader runs again: the page shows what the action changed.
    const { loader } = route;
    raw = loader ? await monitorStep(deps.monitor, "loader", route.path, () => loader(ctx)) : null;
  } catch (error) {
    return failedPage(base, error, record, deps, "loader", responseHeaders());
  }
  const { ready, deferred } = splitDeferred(raw);
  // Components read the same settlements the client will, so both sides throw the same thing.
  const { data, settlements, settle } = openSettlements(ready, [...deferred.keys()]);
  for (const [key, promise] of deferred) {
    Promise.resolve(promise)
      .then(
        (value): DeferredSettlement => ({ key, value }),
        (error: unknown): DeferredSettlement => {
          if (isOutcome(error)) return { key, outcome: outcomeInfo(error) };
          // A loader whose visitor left fails with the abort reason: that is no error of ours.
          if (request.signal.aborted) return { key, error: { digest: "aborted", side: "server" } };
          return { key, error: publicError(error, reportError(record, error, "deferred", deps.capture), deps.mode) };
        },
      )
      .then(settle);
  }
  const payload: PagePayload = { ...base, data: ready, deferred: [...deferred.keys()] };
  if (action) payload.actionData = action.value;
  return { status: action?.status ?? 200, payload, data, settlements, headers: responseHeaders() };
}
