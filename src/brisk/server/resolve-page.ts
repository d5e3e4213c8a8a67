// resolve-page.ts: matches a request to a route and runs its loader, before a single byte is sent.
import { applySettlement, splitDeferred, tracked } from "../runtime/deferred.tsx";
import type { RouteMatch } from "../runtime/match.ts";
import { Outcome, isOutcome, outcomeInfo, type OutcomeInfo } from "../runtime/outcome.ts";
import { PAGE_DATA_VERSION, type DeferredSettlement, type PageError, type PagePayload } from "../runtime/page.ts";
import type { LoaderContext } from "../runtime/route.ts";
import type { ClientAssets } from "./assets.ts";
import type { Mode } from "./config.ts";
import { monitorStep, type RequestMonitor } from "./request-monitor.ts";
import { reportError, type CaptureError, type RequestRecord } from "./request-record.ts";

/** One shared outcome for every unmatched path: an Error captures a stack each time it is made. */
const UNMATCHED = new Outcome("not-found");

export interface PageDeps {
  match(pathname: string): RouteMatch | null;
  assets: ClientAssets;
  mode: Mode;
  capture: CaptureError;
  monitor?: RequestMonitor;
}

export interface ResolvedPage {
  status: number;
  payload: PagePayload;
  /** Loader data as components read it: streamed values are promises. */
  data: unknown;
  settlements: Array<readonly [string, Promise<DeferredSettlement>]>;
  /** Set when the loader redirected: nothing renders. */
  redirect?: OutcomeInfo;
}

/** What a page may show of a server error: the digest always, the message and stack only in development. */
export function publicError(error: unknown, digest: string, mode: Mode): PageError {
  if (mode !== "development") return { digest, side: "server" };
  const e = error instanceof Error ? error : new Error(String(error));
  return { digest, side: "server", message: e.message, stack: e.stack };
}

export function parseCookies(header: string | null): Record<string, string> {
  const cookies: Record<string, string> = {};
  if (!header) return cookies;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 1) continue;
    const name = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1");
    try {
      cookies[name] = decodeURIComponent(raw);
    } catch {
      cookies[name] = raw;
    }
  }
  return cookies;
}

/** Ends a page early: an outcome page, a redirect, or the error page with a digest. */
export function failedPage(
  base: Omit<PagePayload, "data" | "deferred">,
  error: unknown,
  record: RequestRecord,
  deps: PageDeps,
  phase: string,
): ResolvedPage {
  const payload: PagePayload = { ...base, data: null, deferred: [] };
  if (isOutcome(error)) {
    const info = outcomeInfo(error);
    if (error.kind === "redirect") return { status: error.status, payload: { ...payload, outcome: info }, data: null, settlements: [], redirect: info };
    return { status: error.status, payload: { ...payload, outcome: info }, data: null, settlements: [] };
  }
  const digest = reportError(record, error, phase, deps.capture);
  return { status: 500, payload: { ...payload, error: publicError(error, digest, deps.mode) }, data: null, settlements: [] };
}

export async function resolvePage(request: Request, url: URL, record: RequestRecord, deps: PageDeps): Promise<ResolvedPage> {
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
  let cookies: Record<string, string> | undefined;
  const ctx: LoaderContext = {
    params: match.params,
    // Both made when a loader first reads them: most loaders never do.
    get search() {
      return url.searchParams;
    },
    url,
    headers: request.headers,
    get cookies() {
      return (cookies ??= parseCookies(request.headers.get("cookie")));
    },
    signal: request.signal,
  };
  let raw: unknown;
  try {
    const { loader } = match.route;
    raw = loader ? await monitorStep(deps.monitor, "loader", match.route.path, () => loader(ctx)) : null;
  } catch (error) {
    return failedPage(base, error, record, deps, "loader");
  }
  const { ready, deferred } = splitDeferred(raw);
  const data: Record<string, unknown> | unknown = deferred.size ? { ...(ready as object) } : ready;
  const settlements = [...deferred].map(([key, promise]) => {
    const settlement: Promise<DeferredSettlement> = Promise.resolve(promise).then(
      (value) => ({ key, value }),
      (error: unknown) => {
        if (isOutcome(error)) return { key, outcome: outcomeInfo(error) };
        // A loader whose visitor left fails with the abort reason: that is no error of ours.
        if (request.signal.aborted) return { key, error: { digest: "aborted", side: "server" as const } };
        return { key, error: publicError(error, reportError(record, error, "deferred", deps.capture), deps.mode) };
      },
    );
    // Components read the same settlement the client will, so both sides throw the same thing.
    const value = tracked<unknown>();
    settlement.then((s) => applySettlement(s, value));
    (data as Record<string, unknown>)[key] = value.promise;
    return [key, settlement] as const;
  });
  return { status: 200, payload: { ...base, data: ready, deferred: [...deferred.keys()] }, data, settlements };
}
