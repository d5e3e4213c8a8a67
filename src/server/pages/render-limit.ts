// render-limit.ts: the pages rendered at once, bounded overall (RENDER_MAX_IN_FLIGHT) and per visitor (an eighth
// of that). A page past either bound is answered at once with 503 and Retry-After, before its middleware, action
// or loaders run; a page holds its place from then until its render has ended, failed or been aborted. Visitors
// who leave streamed pages at their first bytes and ask again at once (red team F4) otherwise pile up renders
// faster than they end: under such a flood Bun runs no timer and delivers no abort for seconds, and each render
// holds its React state and its loaders' promises until then (bench/README.md, abandoned streams).
import type { Server } from "bun";
import { CLIENT_SHARE, clientKey, visitorAddress } from "../request/forwarded.ts";
import type { SecurityHeaders } from "../http/security-headers.ts";
import type { RequestRecord } from "../request/context.ts";
import { jsonError } from "../request/responses.ts";

export interface RenderPlaces {
  /**
   * `render()`, holding one of the request's visitor's places until its render has ended (`record.done`, once the
   * response is made, or at once without it), failed, or the request is aborted; undefined, without running it,
   * when every place, or every one of the visitor's, is taken.
   */
  run(
    request: Request,
    server: Server<unknown> | null,
    record: RequestRecord,
    render: () => Promise<Response>,
  ): Promise<Response> | undefined;
}

/**
 * `capacity` places, a visitor's share of them an eighth (as for body reads), the visitor found by its address (the
 * socket's on `server`, or behind `proxyHops` trusted proxies the one they saw).
 */
export function createRenderPlaces(capacity: number, proxyHops: number): RenderPlaces {
  const perVisitor = Math.ceil(capacity / CLIENT_SHARE);
  let inUse = 0;
  const byVisitor = new Map<string, number>();

  function give(key: string) {
    inUse--;
    const mine = byVisitor.get(key)!;
    if (mine === 1) byVisitor.delete(key);
    else byVisitor.set(key, mine - 1);
  }

  return {
    run(request, server, record, render) {
      if (inUse >= capacity) return undefined;
      const key = clientKey(visitorAddress(request, server, proxyHops));
      const mine = byVisitor.get(key) ?? 0;
      if (mine >= perVisitor) return undefined;
      inUse++;
      byVisitor.set(key, mine + 1);
      const { signal } = request;
      let held = true;
      const leave = () => {
        if (!held) return;
        held = false;
        signal.removeEventListener("abort", leave);
        give(key);
      };
      // The render stops with its visitor (React and the loaders are given this signal): its place goes then,
      // whatever is still settling.
      signal.addEventListener("abort", leave);
      return render().then(
        (response) => {
          if (record.done) record.done.then(leave, leave);
          else leave();
          return response;
        },
        (error: unknown) => {
          leave();
          throw error;
        },
      );
    },
  };
}

/** How soon a shed page asks to be asked again, in seconds: places come back as renders end, in milliseconds. */
const RENDER_RETRY_AFTER_S = 1;

const TOO_MANY_RENDERS = "too many pages being rendered at once; try again";

const BUSY_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>Busy</title><main role="alert"><h1>Too busy</h1>' +
  "<p>This site is rendering too many pages at once. Try again in a moment.</p></main></html>";

/**
 * The answer to a page that got no place: a 503 with Retry-After, HTML for a document and JSON for page data (the
 * client then loads the document, as for any answer that is not page data). Its log line is a warning.
 */
export function shedPage(isData: boolean, security: SecurityHeaders, record: RequestRecord): Response {
  record.shed = true;
  const retry = { "retry-after": String(RENDER_RETRY_AFTER_S) };
  if (isData) return jsonError(503, TOO_MANY_RENDERS, {}, retry);
  return new Response(BUSY_PAGE, {
    status: 503,
    headers: {
      ...security.scriptlessHtml,
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      ...retry,
    },
  });
}
