// page-target.ts: what a page request's URL asks for (the document of a path, or its page data and how many
// levels the client keeps), or the 4xx for a URL no page can answer, read once per request.
import { KEEP_ALL, KEEP_PARAM, PAGE_DATA_PREFIX } from "../../runtime/page-payload.ts";
import type { RouteMatch } from "../../runtime/route-tree.ts";
import type { RequestContext } from "../request/context.ts";
import { isPageDataPath } from "../request/request-path.ts";
import { text } from "../request/responses.ts";

/** What a page request's URL asks for: the document at `url`, or with `isData` the page data of the page at `url`. */
export interface PageTarget {
  url: URL;
  isData: boolean;
  /** Page data only: how many outer levels the client keeps from the page it shows (KEEP_PARAM); Infinity: all. */
  keep?: number;
  /** The routes its path matches, once something matched them (the render cache's look before routing): kept. */
  match?: RouteMatch | null;
}

/** Longer paths are refused before any work: no page needs them, and they cost memory per request. */
const MAX_PATH_BYTES = 8 * 1024;

/**
 * The request's page, or the 4xx for a URL no page can answer: parsed once, when first asked (by the stored
 * pages' check before routing, else by the pages).
 */
export function pageTarget(context: RequestContext): PageTarget | Response {
  // Kept on the context, which holds it as an opaque object: only this module sets it.
  return (context.target ??= parseTarget(context.request)) as PageTarget | Response;
}

function parseTarget(request: Request): PageTarget | Response {
  // Bun builds request.url from the Host header; an empty or invalid one leaves nothing to parse.
  const url = URL.parse(request.url);
  if (!url) return text(400, "missing or invalid Host header");
  const { pathname } = url;
  if (pathname.length > MAX_PATH_BYTES) return text(414, "path too long");
  // Only a percent sign can be malformed, and most paths have none: decodeURI showed in a prerendered response's
  // profile (bench/README.md, prerendered pages).
  if (pathname.includes("%")) {
    try {
      decodeURI(pathname);
    } catch {
      return text(400, "malformed percent-encoding in the path");
    }
  }
  const isData = isPageDataPath(pathname);
  if (!isData) return { url, isData };
  const target = new URL(url);
  target.pathname = pathname.slice(PAGE_DATA_PREFIX.length) || "/";
  // The loaders see the page's own URL, without what the client says to the framework.
  const hints = target.searchParams.getAll(KEEP_PARAM);
  if (hints.length === 0) return { url: target, isData, keep: 0 };
  target.searchParams.delete(KEEP_PARAM);
  return { url: target, isData, keep: keepHint(hints) };
}

/**
 * How many outer levels the client already shows: one plain number of levels, 1 to 999, `all` (Infinity), or
 * none. It only saves their loaders; their middleware runs whatever it says, so a loose value is ignored rather
 * than read leniently.
 */
function keepHint(hints: string[]): number {
  if (hints.length !== 1) return 0;
  if (hints[0] === KEEP_ALL) return Infinity;
  return /^[1-9][0-9]{0,2}$/.test(hints[0]!) ? Number(hints[0]) : 0;
}
