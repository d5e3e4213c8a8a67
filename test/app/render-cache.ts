// render-cache.ts: the examples' render cache as /healthz reports it, for tests that must know an answer was kept
// before they change what it shows (an answer is kept once its last byte has gone out: there is no event to wait on).
import { waitFor } from "brisk/test";

/** How a test asks the app: ServedApp.request in-process, or a fetch of another process's origin. */
export type Ask = (path: string, init?: RequestInit) => Promise<Response>;

async function storedCount(ask: Ask): Promise<number> {
  const res = await ask("/healthz", { headers: { accept: "application/json" } });
  return ((await res.json()) as { renderCache: { stored: number } }).renderCache.stored;
}

/** `request` run, then a wait until the cache has kept one answer more: the next ask of it can be a hit. */
export async function keptAfter<T>(ask: Ask, request: () => Promise<T>): Promise<T> {
  const before = await storedCount(ask);
  const result = await request();
  await waitFor(async () => (await storedCount(ask)) > before, "an answer kept in the render cache");
  return result;
}
