// browser-navigation.ts: client navigation: fetch the target's page data, load its code, then commit.
import type { NavigateOptions, Navigation, NavState } from "./navigation.ts";
import type { BootState } from "./page.ts";
import { fetchPageData, FullLoadNeeded } from "./page-data-client.ts";
import { livePage, type LivePage } from "./page-view.ts";
import { recoverFromLoadFailure, settleRecovery } from "./recovery.ts";
import type { Reporter } from "./report.ts";
import type { RouteDefinition } from "./route.ts";
import { loadRoute, RouteLoadError } from "./route-loading.ts";

/** Redirect chains longer than this are a loop; the browser's own full load will say so. */
const MAX_REDIRECTS = 5;

export interface BrowserNavigationOptions {
  boot: BootState;
  initial: LivePage;
  routes: readonly RouteDefinition[];
  report: Reporter;
}

function scrollAfterCommit(url: URL) {
  const anchor = url.hash && document.getElementById(decodeURIComponent(url.hash.slice(1)));
  if (anchor) anchor.scrollIntoView();
  else window.scrollTo(0, 0);
}

export function createBrowserNavigation({ boot, initial, routes, report }: BrowserNavigationOptions): Navigation {
  let state: NavState = { path: boot.page.path, search: boot.page.search, page: initial.view };
  const listeners = new Set<() => void>();
  const commit = (next: NavState) => {
    state = next;
    for (const l of listeners) l();
  };
  let current: AbortController | undefined;

  async function go(to: string, { replace = false, pop = false }: NavigateOptions & { pop?: boolean }) {
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
      let fetched = await fetchPageData(url, boot.page.buildId, controller.signal);
      for (let hops = 0; fetched.payload.outcome?.kind === "redirect"; hops++) {
        const next = new URL(fetched.payload.outcome.location!, url);
        if (next.origin !== location.origin || hops === MAX_REDIRECTS) return location.assign(next.href);
        // The visitor never sees the redirecting URL: its history entry becomes the target's.
        url = next;
        fetched = await fetchPageData(url, boot.page.buildId, controller.signal);
      }
      let loadFailed = false;
      try {
        await loadRoute(fetched.payload, routes);
        settleRecovery(url, report);
      } catch (error) {
        if (!(error instanceof RouteLoadError) || controller.signal.aborted) throw error;
        if (recoverFromLoadFailure(url, error, report) === "reloading") return;
        loadFailed = true;
      }
      if (controller.signal.aborted) return;
      const href = url.pathname + url.search + url.hash;
      if (!pop) history[replace ? "replaceState" : "pushState"](null, "", href);
      else if (url !== target) history.replaceState(null, "", href);
      const live = livePage(fetched.payload);
      commit({ path: url.pathname, search: url.search.slice(1), page: live.view, loadFailed });
      if (!pop) scrollAfterCommit(url);
      for await (const s of fetched.settlements) live.settle(s);
      live.end();
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error instanceof FullLoadNeeded) return location.assign(target.href);
      // Offline or reset: stay on the current page, whose URL has not changed, and offer a retry.
      commit({ ...state, failedNavigation: { to: target.href, retry: () => void go(to, { replace, pop }) } });
    }
  }

  window.addEventListener("popstate", () => void go(location.href, { pop: true }));
  // Settlements streamed in the HTML after the client entry started.
  boot.on = (s) => initial.settle(s);
  for (const s of boot.s) initial.settle(s);

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    navigate: (to, options = {}) => void go(to, options),
    config: boot.config,
    host: boot.host,
    nonce: boot.nonce,
  };
}
