// cached-step.ts: a cached route's kept answer, found by its key and sent with this response's nonce: for a page
// without middleware in the request pipeline's stored step, before Sentry's scope and Elysia's routing; for one
// with middleware once its middleware has let the request through (pages.ts), so no kept answer passes a guard.
// A stale answer goes out while one render in the background replaces it.
import type { RouteMatch } from "../../runtime/route-tree.ts";
import type { SecurityHeaders } from "../http/security-headers.ts";
import type { CaptureError, RequestContext } from "../request/context.ts";
import { reportError } from "../request/context.ts";
import type { PageTarget } from "../pages/page-target.ts";
import { hasMiddleware } from "../pages/middleware.ts";
import { cacheKey } from "./cache-key.ts";
import { cachePolicyOf, type CachePolicy } from "./cache-policy.ts";
import type { CacheEntry, RenderCache } from "./render-cache.ts";
import { storedResponse } from "./stored-answer.ts";
import type { CaptureDeps } from "./answer-capture.ts";

export interface CachedPages extends CaptureDeps {
  /** Whether any route is cached: the stored step has no cache step for an app that caches none (create-app.ts). */
  readonly any: boolean;
  readonly build: string;
  readonly security: SecurityHeaders;
  readonly capture: CaptureError;
  match(pathname: string): RouteMatch | null;
  /** Renders `href` again as a visitor without cookies or headers would ask it, and keeps it if it may be. */
  render(href: string): Promise<Response>;
  /** The keys of the stale answers being rendered again: one render at a time each. */
  readonly refreshing: Set<string>;
}

/** Stale answers rendered again at once, in all: a scan of stale pages waits for the next visit past these. */
const MAX_REFRESHING = 4;

function failedRefresh(pages: CachedPages, entry: CacheEntry, why: string): void {
  const staleUntil = new Date(entry.staleUntil).toISOString();
  pages.log({
    level: "warn",
    msg: `a stale answer's render failed: ${why}; it is served until ${staleUntil}`,
    path: entry.path,
  });
}

/** One render at a time per key; a failed one leaves the stale answer until it is too old to serve. */
function refresh(pages: CachedPages, entry: CacheEntry, context: RequestContext): void {
  const keys = pages.refreshing;
  if (keys.has(entry.key) || keys.size >= MAX_REFRESHING) return;
  keys.add(entry.key);
  pages
    .render(entry.href)
    .then(async (response) => {
      await response.body?.pipeTo(new WritableStream());
      // Its errors went to monitoring as the render reported them; the log says the stale answer stays.
      if (response.status >= 500) failedRefresh(pages, entry, `it answered ${response.status}`);
    })
    .catch((error: unknown) => {
      const digest = reportError(context, error, "render", pages.capture);
      failedRefresh(pages, entry, `it failed (digest ${digest})`);
    })
    .finally(() => keys.delete(entry.key));
}

/** A cached page's policy and its answer's key. */
export interface CacheSlot {
  readonly policy: CachePolicy;
  readonly key: string;
}

/** A cached page's policy and key, when the request may be answered from or kept in the cache. */
export function cacheSlot(
  pages: CachedPages,
  target: PageTarget,
  match: RouteMatch | null,
  method: string,
): CacheSlot | undefined {
  if (method !== "GET" && method !== "HEAD") return undefined;
  const policy = cachePolicyOf(match);
  return policy && { policy, key: cacheKey(target, pages.build) };
}

/** The kept answer for a page's key, if there is one to serve; a stale one is rendered again behind it. */
export function cachedResponse(pages: CachedPages, context: RequestContext, key: string): Response | undefined {
  const now = Date.now();
  const entry = pages.cache.find(key, now);
  if (!entry) return undefined;
  const stale = now >= entry.freshUntil;
  if (stale) refresh(pages, entry, context);
  const response = storedResponse(context.request, entry.answer, pages.security);
  response.headers.set("x-cache", stale ? "stale" : "hit");
  response.headers.set("age", String(Math.floor((now - entry.storedAt) / 1000)));
  return response;
}

/** The stored step's part: the kept answer to a GET or HEAD of a cached page that has no middleware. */
export function cachedStep(pages: CachedPages): (context: RequestContext, target: PageTarget) => Response | undefined {
  return (context, target) => {
    const match = (target.match ??= pages.match(target.url.pathname));
    const slot = !hasMiddleware(match) && cacheSlot(pages, target, match, context.method);
    if (!slot) return undefined;
    const response = cachedResponse(pages, context, slot.key);
    if (response) context.route = match!.pattern;
    return response;
  };
}
