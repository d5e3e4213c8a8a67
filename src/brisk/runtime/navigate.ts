// navigate.ts: client navigation: fetch the target's page data, load its code, then commit. A chunk of its
// own, loaded after hydration; it imports only types of what the entry holds, so it adds no shared chunk to
// the critical path: the entry hands those functions in.
import type { NavigateOptions, NavState } from "./navigation.ts";
import type { PagePayload } from "./page.ts";
import { fetchPageData, FullLoadNeeded } from "./page-data-client.ts";
import type { LivePage } from "./page-view.ts";
import type { RouteReadiness } from "./recovery.ts";

/** Redirect chains longer than this are a loop; the browser's own full load will say so. */
const MAX_REDIRECTS = 5;

export type Navigate = (to: string, options: NavigateOptions & { pop?: boolean }) => Promise<void>;

export interface CreateNavigateOptions {
  store: { getState(): NavState; commit(next: NavState): void };
  buildId: string;
  /** Loads the route's code and stylesheets, recovering when they fail (`loadRouteOrRecover`). */
  prepare(url: URL, payload: PagePayload, signal: AbortSignal): Promise<RouteReadiness>;
  /** The page view of a payload whose streamed values are still to come (`livePage`). */
  open(payload: PagePayload): LivePage;
}

function scrollAfterCommit(url: URL) {
  const anchor = url.hash && document.getElementById(decodeURIComponent(url.hash.slice(1)));
  if (anchor) anchor.scrollIntoView();
  else window.scrollTo(0, 0);
}

export function createNavigate({ store, buildId, prepare, open }: CreateNavigateOptions): Navigate {
  let current: AbortController | undefined;

  return async function go(to, { replace = false, pop = false }) {
    const target = new URL(to, location.href);
    if (target.origin !== location.origin) return location.assign(target.href);
    const samePage = target.pathname === location.pathname && target.search === location.search;
    if (!pop && samePage && target.hash) {
      history[replace ? "replaceState" : "pushState"](null, "", target.href);
      return scrollAfterCommit(target);
    }
    current?.abort();
    const controller = (current = new AbortController());
    try {
      let url = target;
      let fetched = await fetchPageData(url, buildId, controller.signal);
      for (let hops = 0; fetched.payload.outcome?.kind === "redirect"; hops++) {
        const next = new URL(fetched.payload.outcome.location!, url);
        if (next.origin !== location.origin || hops === MAX_REDIRECTS) return location.assign(next.href);
        // The visitor never sees the redirecting URL: its history entry becomes the target's.
        url = next;
        fetched = await fetchPageData(url, buildId, controller.signal);
      }
      const readiness = await prepare(url, fetched.payload, controller.signal);
      if (readiness === "reloading" || controller.signal.aborted) return;
      const href = url.pathname + url.search + url.hash;
      if (!pop) history[replace ? "replaceState" : "pushState"](null, "", href);
      else if (url !== target) history.replaceState(null, "", href);
      const live = open(fetched.payload);
      store.commit({ path: url.pathname, search: url.search.slice(1), page: live.view, loadFailed: readiness === "failed" });
      if (!pop) scrollAfterCommit(url);
      for await (const s of fetched.settlements) live.settle(s);
      live.end();
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error instanceof FullLoadNeeded) return location.assign(target.href);
      // Offline or reset: stay on the current page, whose URL has not changed, and offer a retry.
      store.commit({ ...store.getState(), failedNavigation: { to: target.href, retry: () => void go(to, { replace, pop }) } });
    }
  };
}
