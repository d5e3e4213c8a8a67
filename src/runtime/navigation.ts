// navigation.ts: the location and page that are showing, as a store both wouter and the app read.
import { createContext, useContext, useSyncExternalStore } from "react";
import type { ClientConfig, PagePayload } from "./page-payload.ts";

/** A page ready to render: its payload plus each route's loader data, by id, with streamed values as promises. */
export interface PageView {
  payload: PagePayload;
  data: ReadonlyMap<string, unknown>;
}

export interface NavState {
  path: string;
  search: string;
  page: PageView;
  /** The page's code or stylesheets could not be loaded, even after a retry and a reload. */
  loadFailed?: boolean;
  /** Set when a client navigation could not reach the server; the current page stays. */
  failedNavigation?: { to: string; retry(): void };
  /** A navigation or a form submission is on its way: the page can say so (`usePending()`). */
  pending?: Pending;
}

export interface Pending {
  /** `submitting`: a form's action runs; `loading`: a page's data is fetched (a link, a redirect, a revalidation). */
  kind: "loading" | "submitting";
  /** The URL asked for. */
  to: string;
}

export interface NavigateOptions {
  replace?: boolean;
}

export interface Submission {
  /** The form's `action`, resolved against the page. */
  action: string;
  /** The fields, with the button that submitted the form. */
  body: FormData | URLSearchParams;
  /** Sends the form as the browser would, when only a document load can show the answer (a new deploy). */
  fallback(): void;
}

/** A fetcher's post to a route's action (with `body`), or a load of a route's data (without). */
export interface FetcherRequest {
  /** The route's URL, resolved against the page. */
  href: string;
  body?: FormData | URLSearchParams;
  /** Sends the form as the browser would, when only a document load can answer it. */
  fallback?(): void;
  /** Aborted when the fetcher starts again or its component goes. */
  signal: AbortSignal;
  /**
   * Called once the request is over: with the action's value (or the loaded data), or with nothing when
   * an outcome took the page elsewhere. When the page shows new data with it, in the same render.
   */
  done(answer: { data: unknown } | undefined): void;
}

export interface Navigation {
  getState(): NavState;
  subscribe(listener: () => void): () => void;
  navigate(to: string, options?: NavigateOptions): void;
  /**
   * Posts a form through page data; resolves once the page shows the answer, with true when the action
   * succeeded (below 400: a redirect, or data without an error status), so the form can start empty again.
   */
  submit(submission: Submission): Promise<boolean>;
  /** Fetches the current page's data again and shows it, the URL and scroll position unchanged. */
  revalidate(): Promise<void>;
  /**
   * A fetcher's request, without moving the page: `done` gets what the action returned (or the route's
   * data, for a load), along with the page's loaders run again after an action. An outcome or an error is
   * never silent: a redirect navigates, the others show their page in place of the current one.
   */
  fetch(request: FetcherRequest): Promise<void>;
  config: ClientConfig;
  /** The host named by the exception pages. */
  host: string;
  /** The CSP nonce of the document, for the inline scripts and preloads it renders. */
  nonce?: string;
  /** Set on the server, where the location never moves during a render. */
  fixedLocation?: { path: string; search: string };
}

export const NavigationContext = createContext<Navigation | null>(null);

export function useNavigation(): Navigation {
  const nav = useContext(NavigationContext);
  if (!nav) throw new Error("Brisk: NavigationContext is missing; render inside <App>");
  return nav;
}

export function useNavState(): NavState {
  const nav = useNavigation();
  return useSyncExternalStore(nav.subscribe, nav.getState, nav.getState);
}

/** wouter location hook: the path only moves once the target page's data has arrived. */
export function useBriskLocation(): [string, (to: string, options?: NavigateOptions) => void] {
  const nav = useNavigation();
  return [useNavState().path, nav.navigate];
}

export function useBriskSearch(): string {
  return useNavState().search;
}

/** What the page is waiting for, if anything: a form's action, or another page's data. */
export function usePending(): Pending | undefined {
  return useNavState().pending;
}

/** Fetches the current page's data again, after a change made another way (an API call, say). */
export function useRevalidate(): () => Promise<void> {
  return useNavigation().revalidate;
}

/** The server renders exactly one page per request: nothing moves. */
export function staticNavigation(state: NavState, config: ClientConfig, host: string, nonce?: string): Navigation {
  return {
    getState: () => state,
    subscribe: () => () => {},
    navigate: () => {},
    submit: async () => false,
    revalidate: async () => {},
    fetch: async () => {},
    config,
    host,
    nonce,
    fixedLocation: { path: state.path, search: state.search },
  };
}
