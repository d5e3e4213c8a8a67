// pages.ts: the page routes: HTTP checks, then an HTML document or page data for client navigation.
import { Elysia } from "elysia";
import { PAGE_DATA_PREFIX } from "../runtime/page.ts";
import { renderPageData } from "./page-data.ts";
import { renderPage, type RenderDeps } from "./render.tsx";
import { requestRecord } from "./request-log.ts";
import { monitorPage } from "./request-monitor.ts";
import type { RequestRecord } from "./request-record.ts";

/** Longer paths are refused before any work: no page needs them, and they cost memory per request. */
export const MAX_PATH_BYTES = 8 * 1024;

function plain(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(`${text}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });
}

export async function handlePage(request: Request, record: RequestRecord, deps: RenderDeps): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return plain(405, "method not allowed", { allow: "GET, HEAD" });
  }
  // Bun builds request.url from the Host header; an empty or invalid one leaves nothing to parse.
  const url = URL.parse(request.url);
  if (!url) return plain(400, "missing or invalid Host header");
  const { pathname } = url;
  if (pathname.length > MAX_PATH_BYTES) return plain(414, "path too long");
  try {
    decodeURI(pathname);
  } catch {
    return plain(400, "malformed percent-encoding in the path");
  }
  const isData = pathname === PAGE_DATA_PREFIX || pathname.startsWith(`${PAGE_DATA_PREFIX}/`);
  let response: Response;
  if (isData) {
    const target = new URL(url);
    target.pathname = pathname.slice(PAGE_DATA_PREFIX.length) || "/";
    response = await renderPageData(request, target, record, deps);
  } else {
    response = await renderPage(request, url, record, deps);
  }
  if (request.method === "HEAD") {
    await response.body?.cancel();
    return new Response(null, { status: response.status, headers: response.headers });
  }
  return response;
}

export function pagesPlugin(deps: RenderDeps) {
  return new Elysia({ name: "brisk:pages" })
    .use(requestRecord)
    .all("*", ({ request, record }) => monitorPage(deps.monitor, request, record, () => handlePage(request, record, deps)));
}
