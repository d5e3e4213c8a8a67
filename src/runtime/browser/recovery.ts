// recovery.ts: loads a route; when it failed to load twice, one full page load per URL, never a loop.
import type { PagePayload } from "../page-payload.ts";
import type { Reporter } from "../report.ts";
import type { RouteTree } from "../route-tree.ts";
import { loadRoute, RouteLoadError } from "../route-loading.ts";

const PREFIX = "brisk:reload:";

interface Guard {
  resource: string;
  reported: boolean;
}

function key(url: URL) {
  return PREFIX + url.pathname + url.search;
}

function read(url: URL): Guard | null | "unavailable" {
  try {
    const raw = sessionStorage.getItem(key(url));
    return raw === null ? null : (JSON.parse(raw) as Guard);
  } catch {
    // Storage disabled or corrupt: without a guard a reload could loop, so never reload.
    return "unavailable";
  }
}

function warn(report: Reporter, resource: string, message: string) {
  report({ error: new Error(`${message}: ${resource}`), mechanism: "chunk-load", level: "warning" });
}

/**
 * Decides what follows a failed route load. The first time for a URL: a full page load (new HTML,
 * maybe a new build). The second time: "failed", and the caller shows the load-failure page.
 * Either way Sentry hears of it once, as a warning.
 */
function recoverFromLoadFailure(target: URL, error: RouteLoadError, report: Reporter): "reloading" | "failed" {
  const guard = read(target);
  if (guard === null) {
    try {
      sessionStorage.setItem(
        key(target),
        JSON.stringify({ resource: error.resource, reported: false } satisfies Guard),
      );
      location.assign(target.href);
      return "reloading";
    } catch {
      // Fall through: no guard, no reload.
    }
  }
  if (guard === null || guard === "unavailable" || !guard.reported) {
    warn(report, error.resource, "Route failed to load after a retry and a full page load");
    if (guard !== null && guard !== "unavailable") {
      sessionStorage.setItem(key(target), JSON.stringify({ ...guard, reported: true } satisfies Guard));
    }
  }
  return "failed";
}

/** A page that loaded fine: if it was a recovery reload, say so once and forget the guard. */
function settleRecovery(url: URL, report: Reporter): void {
  const guard = read(url);
  if (guard === null || guard === "unavailable") return;
  if (!guard.reported) warn(report, guard.resource, "Route failed to load, recovered by a full page load");
  sessionStorage.removeItem(key(url));
}

/** What loading a route came to: ready to render, a recovery reload under way, or the load-failure page. */
export type RouteReadiness = "ready" | "reloading" | "failed";

/**
 * Loads the code and stylesheets of `payload`'s route, the page at `url`, and recovers when they fail.
 * With `signal`, a navigation abandoned meanwhile gets the failure rethrown: it has nothing to recover.
 */
export async function loadRouteOrRecover(
  url: URL,
  payload: PagePayload,
  { tree, report, signal }: { tree: RouteTree; report: Reporter; signal?: AbortSignal },
): Promise<RouteReadiness> {
  try {
    await loadRoute(payload, tree);
  } catch (error) {
    if (!(error instanceof RouteLoadError) || signal?.aborted) throw error;
    return recoverFromLoadFailure(url, error, report);
  }
  settleRecovery(url, report);
  return "ready";
}
