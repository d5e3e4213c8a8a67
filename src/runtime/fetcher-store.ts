// fetcher-store.ts: the page's fetchers by key: components naming the same key share one fetcher, and any
// component can see every fetcher in flight (a header's count that adds the items still being posted).
import type { Navigation } from "./navigation.ts";

export type FetcherState = "idle" | "submitting" | "loading";

export interface FetcherSnapshot<T = unknown> {
  /** `submitting` while its action runs, `loading` while a load runs, else `idle`. */
  state: FetcherState;
  /** What the last action returned (or the last load's data), once it has arrived. */
  data: T | undefined;
  /** The fields being submitted, while they are: render the result they should have before it is confirmed. */
  formData: FormData | undefined;
  /** Where they are being posted (path and search), while they are. */
  formAction: string | undefined;
}

/** A fetcher in flight, as `useFetchers()` lists it. */
export interface FetcherInFlight extends FetcherSnapshot {
  key: string;
}

interface Entry {
  snapshot: FetcherSnapshot;
  /** The request in flight: a new one, or the last component using the key going, aborts it. */
  controller?: AbortController;
  /** Mounted components using the key. */
  users: number;
  /** Its last request was a load: runs it again. */
  reload?: () => void;
}

export interface FetcherStore {
  subscribe(listener: () => void): () => void;
  get(key: string): FetcherSnapshot;
  /** A component uses `key` until the returned function is called; the last one to go ends its request. */
  use(key: string): () => void;
  /** A new request for `key`: the one before it is abandoned. */
  start(key: string): AbortController;
  /** Whether the request `controller` started still speaks for `key`: no other took over, no reset came since. */
  owns(key: string, controller: AbortController): boolean;
  /**
   * `key` idle with no data, its request in flight no longer its own: a load is abandoned; a post runs on, since
   * the server may have done its work already and the page is to show it.
   */
  reset(key: string): void;
  update(key: string, next: (snapshot: FetcherSnapshot) => FetcherSnapshot): void;
  /** What loads `key`'s data again after the page's next revalidation (its last request was a load), or none (a post). */
  loadedBy(key: string, reload: (() => void) | undefined): void;
  /** Every fetcher not idle; the same array until one changes. */
  inFlight(): FetcherInFlight[];
}

const IDLE: FetcherSnapshot = { state: "idle", data: undefined, formData: undefined, formAction: undefined };

function createFetcherStore(nav: Navigation): FetcherStore {
  const entries = new Map<string, Entry>();
  const listeners = new Set<() => void>();
  let busy: FetcherInFlight[] | undefined;
  const entry = (key: string) => {
    let found = entries.get(key);
    if (!found) entries.set(key, (found = { snapshot: IDLE, users: 0 }));
    return found;
  };
  // Data a fetcher loaded is loaded again whenever the page's levels are after an action, as React Router's
  // fetchers are: once per revalidation the navigation counts, after the commit that showed it.
  let revalidated = nav.getState().revalidated;
  nav.subscribe(() => {
    if (nav.getState().revalidated === revalidated) return;
    revalidated = nav.getState().revalidated;
    queueMicrotask(() => entries.forEach(({ reload }) => reload?.()));
  });
  const changed = () => {
    busy = undefined;
    for (const listener of listeners) listener();
  };
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get: (key) => entries.get(key)?.snapshot ?? IDLE,
    use(key) {
      entry(key).users++;
      return () => {
        const found = entries.get(key);
        if (!found || --found.users > 0) return;
        found.controller?.abort();
        entries.delete(key);
        if (found.snapshot.state !== "idle") changed();
      };
    },
    start(key) {
      const found = entry(key);
      found.controller?.abort();
      return (found.controller = new AbortController());
    },
    owns: (key, controller) => entries.get(key)?.controller === controller && !controller.signal.aborted,
    reset(key) {
      const found = entries.get(key);
      if (!found) return;
      if (found.snapshot.state === "loading") found.controller?.abort();
      found.controller = found.reload = undefined;
      found.snapshot = IDLE;
      changed();
    },
    update(key, next) {
      const found = entry(key);
      found.snapshot = next(found.snapshot);
      changed();
    },
    loadedBy(key, reload) {
      entry(key).reload = reload;
    },
    inFlight: () =>
      (busy ??= [...entries].flatMap(([key, { snapshot }]) =>
        snapshot.state === "idle" ? [] : [{ key, ...snapshot }],
      )),
  };
}

const stores = new WeakMap<Navigation, FetcherStore>();

/** The fetchers of the page this navigation shows (one store per navigation: per request on the server). */
export function fetcherStore(nav: Navigation): FetcherStore {
  let store = stores.get(nav);
  if (!store) stores.set(nav, (store = createFetcherStore(nav)));
  return store;
}
