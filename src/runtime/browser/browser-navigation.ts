// browser-navigation.ts: the browser's navigation, wired: the store the page renders from (nav-store.ts), the
// history's back and forward, and the code that moves between pages (navigate.ts), a chunk of its own fetched
// once the page is hydrating: a first visit never waits for it, and a click that comes before it waits for it.
import type { CreateNavigateOptions, Navigator } from "./navigate.ts";
import type { NavigateOptions, Navigation, Submission } from "../navigation.ts";
import type { BootState } from "../page-payload.ts";
import { navStore, type NavStore } from "./nav-store.ts";
import { livePage, type LivePage } from "./page-view.ts";
import { preloadCodec } from "./received.ts";
import { loadRouteOrRecover } from "./recovery.ts";
import { retryingImport } from "../retry-import.ts";
import type { Reporter } from "../report.ts";
import type { RouteTree } from "../route-tree.ts";

export interface BrowserNavigationOptions {
  boot: BootState;
  initial: LivePage;
  tree: RouteTree;
  report: Reporter;
}

export interface BrowserNavigation extends Navigation {
  /** Fetches the navigation code ahead of the first click; call once hydration is under way. */
  preload(): void;
  /** Calls `listener` with the target of each navigation as it begins, before its page data is fetched. */
  onStart(listener: (to: string) => void): void;
}

/** What the entry hands the navigation chunk: the store, and functions of its own the chunk must not import. */
export function navigatorOptions(
  store: NavStore,
  boot: BootState,
  tree: RouteTree,
  report: Reporter,
): CreateNavigateOptions {
  return {
    store,
    tree,
    buildId: boot.page.buildId,
    nonce: boot.nonce,
    prepare: (url, payload, signal) => loadRouteOrRecover(url, payload, { tree, report, signal }),
    open: livePage,
  };
}

export function createBrowserNavigation({ boot, initial, tree, report }: BrowserNavigationOptions): BrowserNavigation {
  const store = navStore({ path: boot.page.path, search: boot.page.search, page: initial.view });

  const starts = new Set<(to: string) => void>();
  const navigationCode = retryingImport(() => import("./navigate.ts"));
  let created: Navigator | undefined;
  const navigator = () =>
    navigationCode().then(
      ({ createNavigate }) => (created ??= createNavigate(navigatorOptions(store, boot, tree, report))),
    );
  /** Runs `use` once the navigation code is here; if it cannot arrive (offline), the page stays and offers a retry. */
  const withNavigator = <T>(to: string, use: (n: Navigator) => Promise<T>): Promise<T | undefined> =>
    navigator().then(use, () => {
      store.commit({
        ...store.getState(),
        failedNavigation: { to: new URL(to, location.href).href, retry: () => void withNavigator(to, use) },
      });
      return undefined;
    });
  const go = (to: string, options: NavigateOptions & { pop?: boolean }) => {
    for (const listener of starts) listener(to);
    void withNavigator(to, (n) => n.go(to, options));
  };

  window.addEventListener("popstate", () => go(location.href, { pop: true }));

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    navigate: (to, options = {}) => go(to, options),
    submit: async (submission: Submission) =>
      (await withNavigator(submission.action, (n) => n.submit(submission))) ?? false,
    revalidate: async () => void (await withNavigator(location.href, (n) => n.revalidate())),
    // Without the navigation code (offline) the page offers a retry, and the fetcher is not left waiting.
    fetch: async (request) => {
      const ok = await withNavigator(request.href, (n) => n.fetch(request));
      if (ok === undefined) request.done(undefined);
      return ok ?? false;
    },
    // Ahead of a click: without the navigation code (offline) there is nothing to do ahead.
    prefetch: (href) =>
      void navigator().then(
        (n) => n.prefetch(href),
        () => {},
      ),
    // A failure here is retried by the first navigation. The codec comes too: what the navigation chunk
    // needs for a page whose data JSON does not carry.
    preload: () => {
      navigator().catch(() => {});
      preloadCodec();
    },
    onStart: (listener) => void starts.add(listener),
    config: boot.config,
    host: boot.host,
    nonce: boot.nonce,
  };
}
