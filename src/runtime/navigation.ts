// navigation.ts: the location and page that are showing, as a store both wouter and the app read.
import { useCallback, useMemo, useSyncExternalStore } from "react";
import { useAppRuntime } from "./app-context.ts";
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
  /**
   * How many times the page's levels have loaded again after an action or `useRevalidate()`: a fetcher holding
   * loaded data loads it again when this moves, so what the action changed shows there too (as React Router's
   * fetchers do). An action answering with an error status loads nothing again, fetchers included.
   */
  revalidated?: number;
}

export interface Pending {
  /** `submitting`: a form's action runs; `loading`: a page's data is fetched (a link, a redirect, a revalidation). */
  kind: "loading" | "submitting";
  /** The URL asked for. */
  to: string;
  /** The fields of the `<Form>` that asked for it, while it is pending: show the result they should have. */
  formData?: FormData;
}

export interface NavigateOptions {
  replace?: boolean;
}

export interface Submission {
  /** The form's `action`, resolved against the page. */
  action: string;
  /** A GET form navigates to `action` with its fields as the search; a POST form runs the route's action. */
  method?: "get" | "post";
  /** The fields, with the button that submitted the form. */
  body: FormData | URLSearchParams;
  /** The same fields as FormData, for the pending state and shouldRevalidate. */
  formData: FormData;
  /** The page it leads to takes the current history entry instead of a new one. */
  replace?: boolean;
  /** Sends the form as the browser would, when only a document load can show the response (a new deploy). */
  fallback(): void;
}

/** A fetcher's post to a route's action (with `body`), or a load of a route's data (without). */
export interface FetcherRequest {
  /** The route's URL, resolved against the page. */
  href: string;
  body?: FormData | URLSearchParams;
  /** With `body`: the same fields as FormData, for shouldRevalidate. */
  formData?: FormData;
  /** Sends the form as the browser would, when only a document load can answer it. */
  fallback?(): void;
  /** Aborted when the fetcher starts again or its component goes. */
  signal: AbortSignal;
  /**
   * Called once the request is over: with the action's value (or the loaded data), or with nothing when
   * an outcome took the page elsewhere. When the page shows new data with it, in the same render.
   */
  done(result: { data: unknown } | undefined): void;
}

export interface Navigation {
  getState(): NavState;
  subscribe(listener: () => void): () => void;
  navigate(to: string, options?: NavigateOptions): void;
  /**
   * Posts a form through page data (a GET form: navigates to its URL); resolves once the page shows the
   * response, with true when the action succeeded (below 400: a redirect, or data without an error status), so
   * the form can start empty again.
   */
  submit(submission: Submission): Promise<boolean>;
  /** Fetches the current page's data again and shows it, the URL and scroll position unchanged. */
  revalidate(): Promise<void>;
  /**
   * A fetcher's request, without moving the page: `done` gets what the action returned (or the route's
   * data, for a load), along with the page's loaders run again after an action. An outcome or an error is
   * never silent: a redirect navigates, the others show their page in place of the current one. Resolves once
   * the request is over, with true when it succeeded as `submit`'s post does (below 400, or a redirect).
   */
  fetch(request: FetcherRequest): Promise<boolean>;
  /** Loads the page at `href` ahead of a click on a link to it: its data (used once, while fresh) and code. */
  prefetch(href: string): void;
  config: ClientConfig;
  /** The host named by the exception pages. */
  host: string;
  /** The CSP nonce of the document, for the inline scripts and preloads it renders. */
  nonce?: string;
  /** Set on the server, where the location never moves during a render. */
  fixedLocation?: { path: string; search: string };
}

export function useNavigation(): Navigation {
  return useAppRuntime().navigation;
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

/** A new search: what `URLSearchParams` takes, or a function of the current one. */
export type SearchParamsInit = ConstructorParameters<typeof URLSearchParams>[0];
export type SetSearchParams = (
  next: SearchParamsInit | ((current: URLSearchParams) => SearchParamsInit),
  options?: NavigateOptions,
) => void;

/**
 * The page's search, and a setter that navigates to the same path with another search (a new history entry
 * unless `replace`), whose loaders run again as for any new search.
 */
export function useSearchParams(): [URLSearchParams, SetSearchParams] {
  const nav = useNavigation();
  const { path, search } = useNavState();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const set = useCallback<SetSearchParams>(
    (next, options) => {
      const query = new URLSearchParams(
        typeof next === "function" ? next(new URLSearchParams(search)) : next,
      ).toString();
      nav.navigate(query ? `${path}?${query}` : path, options);
    },
    [nav, path, search],
  );
  return [params, set];
}

/** What the page is waiting for, if anything: a form's action, or another page's data. */
export function usePending(): Pending | undefined {
  return useNavState().pending;
}

/** Fetches the current page's data again, after a change made another way (an API call, say). */
export function useRevalidate(): () => Promise<void> {
  return useNavigation().revalidate;
}

/** What a navigation that never moves does: nothing. One set for every request the server renders. */
const STILL = {
  subscribe: () => () => {},
  navigate: () => {},
  submit: async () => false,
  revalidate: async () => {},
  fetch: async () => false,
  prefetch: () => {},
} satisfies Partial<Navigation>;

/** The server renders exactly one page per request: nothing moves. */
export function staticNavigation(state: NavState, config: ClientConfig, host: string, nonce?: string): Navigation {
  return {
    ...STILL,
    getState: () => state,
    config,
    host,
    nonce,
    fixedLocation: { path: state.path, search: state.search },
  };
}
