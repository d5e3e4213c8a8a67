// request-path.ts: where a request goes, read from its URL alone before any routing: its path, and which of the
// server's spaces it falls in (the API's, page data's).
import { PAGE_DATA_PREFIX } from "../../runtime/page-payload.ts";

/** The path of a request URL; with no usable Host, Bun leaves the URL as the bare request target. */
export function requestPath(url: string): string {
  const start = url.startsWith("/") ? 0 : url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const query = url.indexOf("?", start);
  return query === -1 ? url.slice(start) : url.slice(start, query);
}

/** Under /api/ every response is JSON (api/api.ts). */
export const API_PREFIX = "/api";

export function isApiPath(path: string): boolean {
  return path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
}

/** Client navigation's page data: `/__data` and the page's path after it. */
export function isPageDataPath(path: string): boolean {
  return path === PAGE_DATA_PREFIX || path.startsWith(`${PAGE_DATA_PREFIX}/`);
}
