// until.ts (test support): waiting for what a test expects to happen, with a deadline and a failure that says
// what never came. Better an event (a promise the thing itself resolves); these are for when there is none.

import { DEFAULT_TIMEOUT_MS, timedOut, waitFor, type WaitingFor as What } from "../../src/server/testing/wait-for.ts";

/** Resolves once `condition` holds, looking again every few milliseconds: for a state nothing announces. */
export const until = waitFor;

/** `event`, or a failure naming `what` if it has not come by the deadline (rather than the test's own timeout). */
export function within<T>(event: Promise<T>, what: What, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(timedOut(what, timeoutMs)), timeoutMs)),
  );
  return Promise.race([event, late]).finally(() => clearTimeout(timer));
}

export interface Changes {
  /** Call where the watched state changes (a callback the test handed to the code under test). */
  changed(): void;
  /** Resolves once `condition` holds, looking at each change rather than on a clock. */
  until(condition: () => boolean, what: What, timeoutMs?: number): Promise<void>;
}

/** A state the test's own callback changes: waits on it are checked at each change, so none waits longer than it must. */
export function changes(): Changes {
  const waiting = new Set<() => void>();
  return {
    changed() {
      for (const check of [...waiting]) check();
    },
    until(condition, what, timeoutMs = DEFAULT_TIMEOUT_MS) {
      if (condition()) return Promise.resolve();
      const met = Promise.withResolvers<void>();
      const check = () => condition() && met.resolve();
      waiting.add(check);
      return within(met.promise, what, timeoutMs).finally(() => waiting.delete(check));
    },
  };
}
