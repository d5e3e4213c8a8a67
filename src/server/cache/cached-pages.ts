// cached-pages.ts: an app's render cache as the server holds it: made from its routes (checked first) and
// registered for revalidateTag and revalidatePath, with what the pages ask of it (`answerFor`: the kept answer
// once a page's middleware has run, or its render captured) and what the pipeline's stored step asks of it.
// A development server keeps nothing, since the code behind its pages changes, but still warns of a cached
// route that reads the visitor.
import type { AppDefinition } from "../../runtime/app-definition.ts";
import { routeTree } from "../../runtime/route-tree.ts";
import type { Config } from "../config/config.ts";
import type { Logger } from "../monitoring/logger.ts";
import type { CachedAnswer, PageCache, PageDeps } from "../pages/page-request.ts";
import { hasMiddleware } from "../pages/middleware.ts";
import { captured } from "./answer-capture.ts";
import { checkCacheOptions } from "./cache-policy.ts";
import { cachedResponse, cacheSlot, type CachedPages, type CacheSlot } from "./cached-step.ts";
import { canonicalPath, createRenderCache, type Render } from "./render-cache.ts";
import { registerCache } from "./revalidate.ts";

/**
 * A cached page's answer: the kept one, when `lookup` allows and its middleware neither read anything of the visitor
 * (what it let through might depend on it) nor set a header or cookie (which the kept answer lacks); else its
 * render, kept if it may be (answer-capture.ts). A HEAD is never kept. The render is watched from before the
 * middleware: what a middleware loads may be older than a write made while it ran.
 */
function cachedAnswer(pages: CachedPages, slot: CacheSlot, watched: Render): CachedAnswer {
  return async (page, lookup, render) => {
    const { context } = page;
    const lookedUp =
      !page.failure &&
      lookup &&
      hasMiddleware(page.match ?? null) &&
      !context.visitorRead &&
      !page.scope?.responseHeaders().length;
    if (lookedUp) {
      const kept = cachedResponse(pages, context, slot.key);
      if (kept) {
        pages.cache.end(watched);
        return kept;
      }
    }
    let response: Response;
    try {
      response = await render();
    } finally {
      if (page.failure || page.request.method === "HEAD") pages.cache.end(watched);
    }
    if (page.failure || page.request.method === "HEAD") return response;
    return captured({ ...slot, target: page, context, render: watched }, response, pages);
  };
}

/** `render`: a page rendered again from its URL, as a visitor without cookies or headers asks it (pages.ts). */
export function createCachedPages(
  config: Pick<Config, "mode" | "renderCacheMaxBytes">,
  app: AppDefinition,
  deps: PageDeps,
  log: Logger,
  render: (href: string) => Promise<Response>,
): CachedPages & PageCache {
  checkCacheOptions(app.routes);
  const cache = createRenderCache(config.renderCacheMaxBytes);
  registerCache(cache, log);
  const pages: CachedPages & PageCache = {
    cache,
    log,
    keeps: config.mode === "production",
    warned: new Set(),
    refreshing: new Set(),
    any: routeTree(app.routes).nodes.some(({ route }) => route.cache),
    // Read per request: a development server's build changes under it.
    get build() {
      return deps.assets.manifest.buildId;
    },
    security: deps.security,
    capture: deps.capture,
    match: deps.match,
    render,
    answerFor(target, match, method) {
      const slot = cacheSlot(pages, target, match, method);
      return slot && cachedAnswer(pages, slot, cache.begin(slot.policy.tags, canonicalPath(target.url.pathname)));
    },
  };
  return pages;
}
