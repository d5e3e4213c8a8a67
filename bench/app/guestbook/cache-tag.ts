// cache-tag.ts: the render-cache tag of the pages that show the guestbook: the cached route carries it, and a write
// through the API revalidates it (on every instance sharing the database, bench/lib/replica-invalidation.ts).
export const GUESTBOOK_TAG = "guestbook";
