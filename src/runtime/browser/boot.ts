// boot.ts: what the document's scripts hold for the client entry: the page's state, and the streamed values
// their inline scripts queue.
import { SETTLED_QUEUE } from "../deferred.tsx";
import type { BootState, DeferredSettlement } from "../page-payload.ts";
import { received } from "./received.ts";

declare global {
  interface Window {
    /** The boot script's (render.tsx), its page as sent; boot state once the entry has read it. */
    __BRISK__: Omit<BootState, "page"> & { page: unknown };
    [SETTLED_QUEUE]?: unknown[];
  }
}

/** The page's state, its page read: on `window.__BRISK__` too, for whatever reads it later. */
export async function bootState(): Promise<BootState> {
  const boot = window.__BRISK__;
  boot.page = await received<BootState["page"]>(boot.page);
  return boot as BootState;
}

/**
 * Settles each streamed value the document's inline scripts have queued, and each one they push from now on.
 * Returns what resolves once every one queued so far is settled (or rejects when the codec could not load).
 */
export function readSettled(settle: (s: DeferredSettlement) => void): () => Promise<unknown> {
  // Only an array is the queue: an element named like it is the global until this assignment shadows it.
  const queued = window[SETTLED_QUEUE];
  const queue = Array.isArray(queued) ? queued : (window[SETTLED_QUEUE] = []);
  let reading: Promise<unknown> = Promise.resolve();
  const take = (sent: unknown) => {
    const s = received<DeferredSettlement>(sent);
    if (s instanceof Promise) reading = Promise.all([reading, s.then(settle)]);
    else settle(s);
  };
  queue.forEach(take);
  queue.push = (...sent: unknown[]) => (sent.forEach(take), 0);
  return () => reading;
}
