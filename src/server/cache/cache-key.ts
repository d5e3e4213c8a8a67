// cache-key.ts: what a kept answer is found by: its build, whether it is the document or page data (and how many
// levels the client keeps), its host and port, path and search with the parameters in one order. The host and port
// are part of it: a page's boot script names the host, and a loader may build links from `url.origin`.
import type { PageTarget } from "../pages/page-target.ts";

/** The search with its parameters sorted by name (stable: a repeated name keeps its values' order). */
function normalisedSearch(url: URL): string {
  if (!url.search || url.search === "?") return "";
  const params = new URLSearchParams(url.search);
  params.sort();
  return params.toString();
}

export function cacheKey(target: PageTarget, build: string): string {
  const kind = target.isData ? `data:${target.keep ?? 0}` : "document";
  const { url } = target;
  return `${build}\n${kind}\n${url.host}\n${url.pathname}\n${normalisedSearch(url)}`;
}
