// Popular.server.ts: /examples/popular's loader: how many entries the guestbook has and its most liked one, and
// when that was read. The route keeps the rendered page (routes.tsx `cache`), so this runs once per guestbook write.
import { store } from "../lifecycle.server.ts";
import type { Entry } from "../store/guestbook.server.ts";

/** The newest entries read: a page rendered from the store is bounded however many a visitor writes. */
export const SCANNED = 1000;

/** The most likes, the older entry on a tie (the list is newest first); undefined while none has a like. */
function mostLiked(entries: readonly Entry[]): Entry | undefined {
  let top: Entry | undefined;
  for (const entry of entries) if (entry.likes > 0 && entry.likes >= (top?.likes ?? 0)) top = entry;
  return top;
}

export async function popularLoader() {
  const entries = await store().guestbook.listEntries({ limit: SCANNED });
  return {
    count: entries.length,
    /** Whether there are more entries than were read: the count is then "at least". */
    more: entries.length === SCANNED,
    top: mostLiked(entries),
    renderedAt: new Date().toISOString(),
  };
}
