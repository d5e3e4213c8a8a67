// nav-store.ts: the navigation store the browser renders from: the page shown, what is pending, a navigation
// that failed. The entry makes it (browser-navigation.ts); the navigation chunk commits to it.
import { flushSync } from "react-dom";
import type { NavState } from "../navigation.ts";

export interface NavStore {
  getState(): NavState;
  /**
   * With `alongside` (fetchers that end with this page), their state and the page render together, in one
   * synchronous render: an optimistic count never shows the new data and the fields in flight at once.
   */
  commit(next: NavState, alongside?: () => void): void;
  subscribe(listener: () => void): () => void;
}

/** The state the page renders from, starting at `initial`. */
export function navStore(initial: NavState): NavStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    commit(next, alongside) {
      const apply = () => {
        alongside?.();
        state = next;
        for (const l of listeners) l();
      };
      if (alongside) flushSync(apply);
      else apply();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
