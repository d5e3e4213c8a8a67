// render.tsx: streams one page as HTML, with its status decided before the first byte.
import { renderToReadableStream } from "react-dom/server";
import { App } from "../../runtime/App.tsx";
import type { AppDefinition } from "../../runtime/app-definition.ts";
import { staticNavigation } from "../../runtime/navigation.ts";
import { OUTCOME_MARKER, isOutcome } from "../../runtime/outcome.ts";
import type { ClientConfig } from "../../runtime/page-payload.ts";
import type { ActionBody } from "../../runtime/route.ts";
import { scriptJson } from "../../runtime/script-json.ts";
import { UNMATCHED_ROUTE } from "../../runtime/trace-names.ts";
import { digestOf } from "../monitoring/digest.ts";
import { withAppHeaders } from "../http/answer-headers.ts";
import { monitorStep, type TraceHeaders } from "../monitoring/request-monitor.ts";
import { reportError, type RequestRecord } from "../monitoring/request-record.ts";
import { failedPage, resolvePage, type PageDeps, type ResolvedPage } from "./resolve-page.ts";
import type { SecurityHeaders } from "../http/security-headers.ts";

export interface RenderDeps extends PageDeps {
  app: AppDefinition;
  clientConfig: ClientConfig;
  security: SecurityHeaders;
}

const HTML = "text/html; charset=utf-8";

function redirectResponse(page: ResolvedPage): Response {
  const headers = withAppHeaders({ location: page.redirect!.location!, "cache-control": "no-store" }, page.headers, true);
  return new Response(null, { status: page.status, headers });
}

/** The page state and a tiny settle() that streamed scripts call before the client entry has loaded. */
function bootScript(page: ResolvedPage, clientConfig: ClientConfig, host: string, nonce: string, trace?: TraceHeaders): string {
  const state = scriptJson({ page: page.payload, config: clientConfig, host, nonce, s: [], ...(trace ? { trace } : {}) });
  return `var B=window.__BRISK__=${state};B.settle=function(x){B.s.push(x);B.on&&B.on(x)}`;
}

/** Last resort when even the error page fails to render: static, still honest, still with the digest. */
function plainErrorPage(host: string, digest: string, headers: Record<string, string>): Response {
  const safeHost = host.replace(/[^a-zA-Z0-9.:\-[\]]/g, "");
  const body = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Application error</title><main role="alert"><h1>Application error</h1><p>A server-side exception has occurred while loading ${safeHost}.</p><p class="digest">Digest: <code>${digest}</code></p></main></html>`;
  return new Response(body, { status: 500, headers: { ...headers, "content-type": HTML, "cache-control": "no-store" } });
}

async function renderDocument(
  request: Request,
  url: URL,
  page: ResolvedPage,
  record: RequestRecord,
  deps: RenderDeps,
  attempt: number,
): Promise<Response> {
  if (page.redirect) return redirectResponse(page);
  const host = url.hostname;
  const nonce = deps.security.nonce();
  const headers = deps.security.html(nonce);
  const navigation = staticNavigation(
    { path: page.payload.path, search: page.payload.search, page: { payload: page.payload, data: page.data } },
    deps.clientConfig,
    host,
    nonce,
  );
  // Taken here, outside the render's own span: the browser continues the page's transaction.
  const trace = deps.monitor?.traceHeaders?.();
  try {
    const root = <App app={deps.app} navigation={navigation} settlements={page.settlements} inlineStyles={deps.assets.inlineStyles} />;
    const render = () => renderToReadableStream(root, {
      bootstrapModules: [deps.assets.entryUrl],
      bootstrapScriptContent: bootScript(page, deps.clientConfig, host, nonce, trace),
      // The style nonce: React writes it on the inlined stylesheets only when told it here too.
      nonce: { script: nonce, style: nonce },
      signal: request.signal,
      onError(error) {
        // A visitor who leaves aborts the render; that is not a failure of the page.
        if (request.signal.aborted) return;
        if (isOutcome(error)) return `${OUTCOME_MARKER}:${error.kind}`;
        return reportError(record, error, "render", deps.capture);
      },
    });
    const stream = await monitorStep(deps.monitor, "render", page.payload.route ?? UNMATCHED_ROUTE, render);
    record.done = stream.allReady;
    const failed = page.status >= 500 || page.payload.outcome !== undefined;
    // Filled in place: this object is the response's only copy of its headers.
    headers["content-type"] = HTML;
    headers["cache-control"] = failed ? "no-store" : "private, no-cache";
    headers["x-request-id"] = record.id;
    return new Response(stream, { status: page.status, headers: withAppHeaders(headers, page.headers, failed) });
  } catch (error) {
    if (request.signal.aborted) return new Response(null, { status: 499 });
    const digest = digestOf(error);
    // The shell failed: render again, once, as the outcome page or the error page.
    if (attempt === 0) {
      const base = { ...page.payload };
      const fallback = failedPage(base, error, record, deps, "render");
      return renderDocument(request, url, fallback, record, deps, 1);
    }
    return plainErrorPage(host, digest ?? reportError(record, error, "render", deps.capture), headers);
  }
}

export async function renderPage(
  request: Request,
  url: URL,
  record: RequestRecord,
  deps: RenderDeps,
  submission?: ActionBody,
): Promise<Response> {
  return renderResolved(request, url, await resolvePage(request, url, record, deps, submission), record, deps);
}

/** The document of a page whose action and loader have run. */
export function renderResolved(request: Request, url: URL, page: ResolvedPage, record: RequestRecord, deps: RenderDeps): Promise<Response> {
  return renderDocument(request, url, page, record, deps, 0);
}
