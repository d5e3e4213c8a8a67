// until.ts (test support): waiting for what a test expects to happen, with a deadline and a failure that says
// what never came. Better an event (a promise the thing itself resolves); these are for when there is none.

/** What `what` names once the deadline has passed: a text, or one made then, with the state at that moment. */
type What = string | (() => string);

const DEFAULT_TIMEOUT_MS = 10_000;
/** How often `until` looks again: short beside anything a test waits for, long beside the look itself. */
const POLL_MS = 5;

const timedOut = (what: What, timeoutMs: number) =>
  new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === "string" ? what : what()}`);

/** Resolves once `condition` holds, looking again every few milliseconds: for a state nothing announces. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: What,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw timedOut(what, timeoutMs);
    await Bun.sleep(POLL_MS);
  }
}

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
