// failed-page.ts: how a page ends early (a redirect, an outcome page, the error page with a digest), and where:
// the nearest route's fallback inside the levels above, or the app's page.
import { settlementRoute } from "../../runtime/deferred.tsx";
import { showsErrorDetails } from "../../runtime/error-page.ts";
import { Outcome, isOutcome, outcomeInfo } from "../../runtime/outcome.ts";
import type { Boundary, PageError, PagePayload } from "../../runtime/page-payload.ts";
import type { Mode } from "../../runtime/app-server.ts";
import type { RouteFallbacks } from "../../runtime/route.ts";
import type { RouteMatch } from "../../runtime/route-tree.ts";
import { reportError, type Phase, type RequestRecord } from "../request/context.ts";
import type { ResolveDeps, ResolvedPage } from "./page-request.ts";

/** What a page may show of a server error: the digest always, the message and stack only in development. */
export function publicError(error: unknown, digest: string, mode: Mode): PageError {
  if (!showsErrorDetails(mode)) return { digest, side: "server" };
  const e = error instanceof Error ? error : new Error(String(error));
  return { digest, side: "server", message: e.message, stack: e.stack };
}

/** The fallback kind an outcome or error needs. */
function fallbackKind(error: unknown): keyof RouteFallbacks | undefined {
  if (!isOutcome(error)) return "error";
  return error.kind === "redirect" ? undefined : error.kind;
}

/**
 * Where a failure at level `depth` shows: the fallback of the nearest route at or above it that has one for
 * it, inside the levels above (inside that route itself when the failure is below it), else nowhere (the app's page).
 */
export function boundaryFor(match: RouteMatch | null, depth: number, error: unknown): Boundary | undefined {
  const kind = fallbackKind(error);
  if (!match || !kind) return undefined;
  for (let owner = Math.min(depth, match.levels.length - 1); owner >= 0; owner--) {
    const { node } = match.levels[owner]!;
    if (node.route.fallbacks?.[kind]) return { id: node.id, depth: owner < depth ? owner + 1 : depth };
  }
  // A path no route matches below these layouts: the app's not-found page, inside them all.
  if (match.missing && depth >= match.levels.length && kind === "not-found")
    return { id: match.levels.at(-1)!.node.id, depth: match.levels.length };
  return undefined;
}

/**
 * Ends a page early: a redirect, an outcome page or the error page with a digest, shown by the nearest route
 * fallback for level `at` inside the levels above it, or without one by the app's page. `page` is what the
 * page had so far: the levels above the fallback keep their data.
 */
export function failedPage(
  page: Omit<ResolvedPage, "status">,
  error: unknown,
  at: number | undefined,
  record: RequestRecord,
  deps: ResolveDeps,
  phase: Phase,
): ResolvedPage {
  const boundary = at === undefined ? undefined : boundaryFor(page.match, at, error);
  const depth = boundary?.depth ?? 0;
  const payload: PagePayload = {
    ...page.payload,
    levels: page.payload.levels.map((level, i) => (i < depth ? level : { id: level.id })),
    actionData: undefined,
  };
  if (boundary) payload.boundary = boundary;
  else delete payload.boundary;
  // Nothing shown (a redirect, the app's page): nothing to sort out of what the page had.
  const ids = depth === 0 ? undefined : new Set(page.payload.levels.slice(0, depth).map((level) => level.id));
  const ended = {
    ...page,
    data: ids ? new Map([...page.data].filter(([id]) => ids.has(id))) : new Map<string, unknown>(),
    settlements: ids ? page.settlements.filter(([key]) => ids.has(settlementRoute(key))) : [],
  };
  if (isOutcome(error)) return { ...ended, status: error.status, payload: { ...payload, outcome: outcomeInfo(error) } };
  const digest = reportError(record, error, phase, deps.capture);
  return { ...ended, status: 500, payload: { ...payload, error: publicError(error, digest, deps.mode) } };
}

/**
 * After a form post a redirect is 303 See Other, so the browser follows with a GET: a 307 or 308 would make
 * it post the form again to the new address.
 */
export function afterPost(error: unknown): unknown {
  if (isOutcome(error) && error.kind === "redirect" && (error.status === 307 || error.status === 308)) {
    return new Outcome("redirect", error.location, 303);
  }
  return error;
}

/** `afterPost` for a failure of a post, whatever step it came from (a middleware's, before any body was read). */
export function afterMethod(request: Request, error: unknown): unknown {
  return request.method === "POST" ? afterPost(error) : error;
}

/** Whether the action or loader redirected: nothing renders, the response is the redirect. */
export function redirected(page: ResolvedPage): boolean {
  return page.payload.outcome?.kind === "redirect";
}
