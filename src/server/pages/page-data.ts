// page-data.ts: answers client navigation with a page's data as newline-delimited JSON.
// Line one is the PagePayload; each later line settles one streamed loader value. Each line is JSON, or the
// codec's form when JSON would not carry its values exactly (wire.ts).
import { PAGE_DATA_TYPE } from "../../runtime/page-payload.ts";
import { withAppHeaders } from "../request/headers.ts";
import { withTraceHeaders } from "../request/monitor.ts";
import type { PageDeps, PageRequest } from "./page-request.ts";
import { redirected } from "./failed-page.ts";
import { wireLine } from "./wire.ts";
import { resolvePage } from "./resolve-page.ts";
import type { ResolvedPage } from "./page-request.ts";

const HEADERS = {
  "content-type": `${PAGE_DATA_TYPE}; charset=utf-8`,
  "cache-control": "no-store",
};

export async function renderPageData(page: PageRequest, deps: PageDeps): Promise<Response> {
  return pageDataOf(page, await resolvePage(page, deps), deps);
}

/** The page data of a page whose action and loader have run. */
export function pageDataOf({ context }: PageRequest, resolved: ResolvedPage, deps: PageDeps): Response {
  // A redirect is data here, not a 3xx: fetch would follow it and hide the target from the client router.
  const status = redirected(resolved) ? 200 : resolved.status;
  const failed = resolved.status >= 300;
  const base = withTraceHeaders(HEADERS, deps.monitor);
  const head = wireLine(resolved.payload, resolved.rich);
  if (resolved.settlements.length === 0) {
    // Its length known, the compression step can leave a small one as it is.
    const fixed = { ...base, "content-length": String(Buffer.byteLength(head)) };
    return new Response(head, { status, headers: withAppHeaders(fixed, resolved.headers, failed) });
  }
  const headers = withAppHeaders(base, resolved.headers, failed);
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
      await Promise.all(resolved.settlements.map(([, settlement]) => settlement.then((s) => send(wireLine(s)))));
      try {
        controller.close();
      } catch {}
    },
  });
  context.done = Promise.all(resolved.settlements.map(([, s]) => s));
  return new Response(body, { status, headers });
}
