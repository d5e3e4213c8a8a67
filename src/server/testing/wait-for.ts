// wait-for.ts (brisk/test): waiting for a state nothing announces (an answer kept in the render cache, a replica
// that has heard of a write), with a deadline and a failure that says what never came.

/** What `what` names once the deadline has passed: a text, or one made then, with the state at that moment. */
export type WaitingFor = string | (() => string);

export const DEFAULT_TIMEOUT_MS = 10_000;
/** How often to look again: short beside anything a test waits for, long beside the look itself. */
const POLL_MS = 5;

export const timedOut = (what: WaitingFor, timeoutMs: number) =>
  new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === "string" ? what : what()}`);

/** Resolves once `condition` holds, looking again every few milliseconds; rejects naming `what` after the deadline. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: WaitingFor,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw timedOut(what, timeoutMs);
    await Bun.sleep(POLL_MS);
  }
}
