// Cached.server.ts: a public page whose loader sets its Cache-Control, on the document and its page data.
import type { LoaderContext } from "brisk";

export function cachedLoader({ setHeader }: LoaderContext) {
  // Nothing here depends on the visitor: a shared cache may keep it for a minute.
  setHeader("Cache-Control", "public, max-age=60");
  return { renderedAt: new Date().toISOString() };
}
