// SearchExample.server.ts: the search example's loader: the query, echoed.
import type { LoaderContext } from "brisk";

export function searchLoader({ search }: LoaderContext) {
  return { q: search.get("q") ?? "" };
}
