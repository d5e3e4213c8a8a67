// navigator-state.ts: what every step of a client navigation reads and changes (the store, the request in flight,
// the fetchers waiting for a page, the pages loaded ahead), and the small steps they all take.
import type { NavState, PageView } from "../navigation.ts";
import type { PagePayload } from "../page-payload.ts";
import type { RouteTree } from "../route-tree.ts";
import type { FetchedPage } from "./page-data-client.ts";
import type { LivePage } from "./page-view.ts";
import { preloadModules } from "./preload-modules.ts";
import type { RouteReadiness } from "./recovery.ts";

export interface CreateNavigateOptions {
  store: { getState(): NavState; commit(next: NavState, alongside?: () => void): void };
  tree: RouteTree;
  buildId: string;
  /** The document's CSP nonce, for the preloads of a page's chunks. */
  nonce: string | undefined;
  /** Loads the route's code and stylesheets, recovering when they fail (`loadRouteOrRecover`). */
  prepare(url: URL, payload: PagePayload, signal: AbortSignal): Promise<RouteReadiness>;
  /** The page view of a payload whose streamed values are still to come, its kept levels from `shown` (`livePage`). */
  open(payload: PagePayload, shown: PageView): LivePage;
}

/** A page's data asked for ahead of a click (prefetch.ts). */
export interface Prefetched {
  /** The levels it kept: a click that would keep others cannot use it. */
  keptLevels: number;
  /** When it was asked for (Date.now()). */
  at: number;
  fetched: Promise<FetchedPage>;
  controller: AbortController;
  /** Lets the connection go once it is stale. */
  expiry: ReturnType<typeof setTimeout>;
}

export interface NavigatorState extends CreateNavigateOptions {
  /** The navigation or submission in flight: the next one aborts it. */
  current: AbortController | undefined;
  /** Fetchers whose request ends with the next page the store shows: they go idle in the same render. */
  ending: Array<() => void>;
  /** Pages loaded ahead of a click, by path and search. */
  prefetched: Map<string, Prefetched>;
}

export function navigatorState(options: CreateNavigateOptions): NavigatorState {
  return { ...options, current: undefined, ending: [], prefetched: new Map() };
}

/** Shows `next`; the fetchers waiting for a page go idle in the same render. */
export function commitPage(n: NavigatorState, next: NavState): void {
  const done = n.ending.splice(0);
  n.store.commit(next, done.length ? () => done.forEach((end) => end()) : undefined);
}

/** A navigation or submission starts: the one in flight is abandoned, and the page can say what it waits for. */
export function begin(n: NavigatorState, pending: NonNullable<NavState["pending"]>): AbortController {
  n.current?.abort();
  n.store.commit({ ...n.store.getState(), pending, failedNavigation: undefined });
  return (n.current = new AbortController());
}

/** Leaves the page as it was, without the pending state. */
export function settle(n: NavigatorState): void {
  n.store.commit({ ...n.store.getState(), pending: undefined });
}

/** Loads the page's chunks side by side, then its route's code and stylesheets. */
export function ready(n: NavigatorState, url: URL, payload: PagePayload, signal: AbortSignal): Promise<RouteReadiness> {
  preloadModules(payload.assets.js, n.nonce);
  return n.prepare(url, payload, signal);
}

export const isCurrent = (url: URL) => url.pathname === location.pathname && url.search === location.search;

/** Settles the page's streamed values as their lines arrive; what never came fails once the stream ends. */
export async function settleAll(live: LivePage, { settlements }: FetchedPage): Promise<void> {
  for await (const s of settlements) live.settle(s);
  live.end();
}
