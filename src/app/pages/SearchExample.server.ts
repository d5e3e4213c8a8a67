// SearchExample.server.ts: the search example's loader: the query, echoed.
import type { LoaderContext } from "../../runtime/route.ts";

export function searchLoader({ search }: LoaderContext) {
  return { q: search.get("q") ?? "" };
}
