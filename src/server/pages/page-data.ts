// page-data.ts: answers client navigation with a page's data as newline-delimited JSON.
// Line one is the PagePayload; each later line settles one streamed loader value.
import { PAGE_DATA_TYPE } from "../../runtime/page-payload.ts";
import type { ActionBody } from "../../runtime/route.ts";
import { withAppHeaders } from "../http/answer-headers.ts";
import { withTraceHeaders } from "../monitoring/request-monitor.ts";
import type { RequestRecord } from "../monitoring/request-record.ts";
import { resolvePage, type PageDeps, type ResolvedPage } from "./resolve-page.ts";

const HEADERS = {
  "content-type": `${PAGE_DATA_TYPE}; charset=utf-8`,
  "cache-control": "no-store",
};

export async function renderPageData(
  request: Request,
  url: URL,
  record: RequestRecord,
  deps: PageDeps,
  submission?: ActionBody,
): Promise<Response> {
  return pageDataOf(await resolvePage(request, url, record, deps, submission), record, deps);
}

/** The page data of a page whose action and loader have run. */
export function pageDataOf(page: ResolvedPage, record: RequestRecord, deps: PageDeps): Response {
  // A redirect is data here, not a 3xx: fetch would follow it and hide the target from the client router.
  const status = page.redirect ? 200 : page.status;
  const failed = page.status >= 300;
  const base = withTraceHeaders(HEADERS, deps.monitor);
  const head = `${JSON.stringify(page.payload)}\n`;
  if (page.settlements.length === 0) {
    // Its length known, the compression step can leave a small one as it is.
    const fixed = { ...base, "content-length": String(Buffer.byteLength(head)) };
    return new Response(head, { status, headers: withAppHeaders(fixed, page.headers, failed) });
  }
  const headers = withAppHeaders(base, page.headers, failed);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      // Once the visitor has gone the stream is closed and enqueue throws; the rest has nowhere to go.
      const send = (line: string) => {
        try {
          controller.enqueue(encoder.encode(line));
        } catch {}
      };
      send(head);
      await Promise.all(page.settlements.map(([, settlement]) => settlement.then((s) => send(`${JSON.stringify(s)}\n`))));
      try {
        controller.close();
      } catch {}
    },
  });
  record.done = Promise.all(page.settlements.map(([, s]) => s));
  return new Response(body, { status, headers });
}
