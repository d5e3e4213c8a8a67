// Popular.server.ts: /examples/popular's loader: how many entries the guestbook has and its most liked one, and
// when that was read. The route keeps the rendered page (routes.tsx `cache`), so this runs once per guestbook write.
import { store } from "../lifecycle.server.ts";

export async function popularLoader() {
  const { count, top } = await store().guestbook.summary();
  return { count, top, renderedAt: new Date().toISOString() };
}
