// pages.ts: the page routes: HTTP checks, the app's public files, then an HTML document or page data.
import { Elysia } from "elysia";
import { BUILD_HEADER, KEEP_PARAM, PAGE_DATA_PREFIX } from "../../runtime/page-payload.ts";
import type { ActionBody } from "../../runtime/route.ts";
import { allowedMethods, isResourceRoute } from "../../runtime/route-tree.ts";
import { compressed } from "../http/compress.ts";
import type { StoredResponses } from "../prerender/serve.ts";
import { recordOf, type RequestRecord } from "../request/context.ts";
import { readSubmission, refuseCrossSite } from "../bodies/submission.ts";
import { text } from "../request/answers.ts";
import { monitorPage } from "../request/monitor.ts";
import { renderPageData } from "./page-data.ts";
import type { PageDeps, PageRequest } from "./page-request.ts";
import { renderPage } from "./render.tsx";
import { requestContext } from "../request/level-context.ts";
import { answerResource } from "./resource.ts";
import { hasMiddleware, runMiddleware } from "../request/middleware.ts";

/** Longer paths are refused before any work: no page needs them, and they cost memory per request. */
export const MAX_PATH_BYTES = 8 * 1024;

/** Where a page request goes: the document's URL, or with `isData` the page whose data it asks for. */
type PageTarget = Pick<PageRequest, "url" | "isData" | "keep">;

/** Asked first by the request scope (isStoredResponse), then by the pages: the URL is parsed once. */
const targets = new WeakMap<Request, PageTarget | Response>();

/** The request's page, or the 4xx for a URL no page can answer. */
function pageTarget(request: Request): PageTarget | Response {
  let target = targets.get(request);
  if (!target) targets.set(request, (target = parseTarget(request)));
  return target;
}

function parseTarget(request: Request): PageTarget | Response {
  // Bun builds request.url from the Host header; an empty or invalid one leaves nothing to parse.
  const url = URL.parse(request.url);
  if (!url) return text(400, "missing or invalid Host header");
  const { pathname } = url;
  if (pathname.length > MAX_PATH_BYTES) return text(414, "path too long");
  // Only a percent sign can be malformed, and most paths have none: decodeURI was ~4 % of a stored answer's profile.
  if (pathname.includes("%")) {
    try {
      decodeURI(pathname);
    } catch {
      return text(400, "malformed percent-encoding in the path");
    }
  }
  const isData = pathname === PAGE_DATA_PREFIX || pathname.startsWith(`${PAGE_DATA_PREFIX}/`);
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
 * How many outer levels the client already shows: one plain number of levels, 1 to 999, or none. It only saves
 * their loaders; their middleware runs whatever it says, so a loose value is ignored rather than read leniently.
 */
function keepHint(hints: string[]): number {
  return hints.length === 1 && /^[1-9][0-9]{0,2}$/.test(hints[0]!) ? Number(hints[0]) : 0;
}

/** Whether a GET or HEAD of a page gets a stored response: nothing of the app's runs for it. */
export function isStoredResponse(request: Request, prerendered: StoredResponses): boolean {
  const page = pageTarget(request);
  return !(page instanceof Response) && prerendered.has(page.url, page.isData);
}

/** The stored answer to a GET or HEAD, if it has one (answered before routing: served-from-store.ts). */
export function storedResponse(request: Request, record: RequestRecord, prerendered: StoredResponses): Response | undefined {
  const page = pageTarget(request);
  return page instanceof Response ? undefined : prerendered.response(request, page.url, record, page.isData);
}

/** Renders the page a request asks for: no public file, no stored page (bench/ablation-server.ts runs it bare). */
export async function handlePage(request: Request, record: RequestRecord, deps: PageDeps): Promise<Response> {
  const target = pageTarget(request);
  return target instanceof Response ? target : renderTarget(request, record, target, deps);
}

async function renderTarget(request: Request, record: RequestRecord, target: PageTarget, deps: PageDeps) {
  const match = deps.match(target.url.pathname);
  const allowed = allowedMethods(match);
  if (!allowed.includes(request.method)) return text(405, "method not allowed", { allow: allowed.join(", ") });
  const posted = request.method === "POST";
  if (posted) {
    // A form posted by a page of another build: refused before its action runs, so the client can send it
    // again as a document post, which this build answers.
    const build = target.isData ? request.headers.get(BUILD_HEADER) : null;
    if (build !== null && build !== deps.assets.manifest.buildId) return text(409, "the page is from another build; send the form again");
    const crossSite = refuseCrossSite(request, target.url, deps);
    if (crossSite) return crossSite;
  }
  const page: PageRequest = { request, record, ...target, match };
  let response: Response;
  if (hasMiddleware(match)) {
    const context = (page.context = requestContext(request, target.url, deps.cookies));
    // The body is read inside the middleware: a guard refuses a post before it is uploaded and stored.
    response = await runMiddleware(request, match, context, (failure) => respond(failure ? { ...page, failure } : page, posted, deps));
  } else {
    response = await respond(page, posted, deps);
  }
  // Development pages go as they are: the dev server appends its reload script to the HTML stream.
  return deps.mode === "production" ? compressed(request, response) : response;
}

/** The page's answer once the middleware let it through (or failed): the post's body read, then the route's answer. */
async function respond(page: PageRequest, posted: boolean, deps: PageDeps): Promise<Response> {
  if (posted && !page.failure) {
    const read = await readSubmission(page.request, deps);
    if (read instanceof Response) return read;
    page.submission = read;
    if (page.context) page.context.body = read;
  }
  return page.request.method === "HEAD" ? headOf(page, deps) : answer(page, deps);
}

/** What the matched route answers: the document, its page data, or what a route without a page returns. */
function answer(page: PageRequest, deps: PageDeps): Promise<Response> {
  const { match } = page;
  if (match && isResourceRoute(match.route)) return answerResource(page, match, deps);
  return page.isData ? renderPageData(page, deps) : renderPage(page, deps);
}

/**
 * A HEAD renders as far as the status and headers, then stops the rest with a signal of its own. Cancelling
 * the body alone would abort React "without a reason" while the visitor's signal is still live, and every
 * HEAD on a streamed page would be logged and reported as a failed render.
 */
async function headOf(page: PageRequest, deps: PageDeps): Promise<Response> {
  const stop = new AbortController();
  const head = new Request(page.request, { signal: AbortSignal.any([page.request.signal, stop.signal]) });
  const response = await answer({ ...page, request: head }, deps);
  stop.abort();
  const streamed = response.body !== null && !response.headers.has("content-length");
  await response.body?.cancel();
  const headers = new Headers(response.headers);
  // Without a length a HEAD would be told `Content-Length: 0`; the GET's body has none, it is chunked.
  if (streamed) headers.set("transfer-encoding", "chunked");
  return new Response(null, { status: response.status, headers });
}

export function pagesPlugin(deps: PageDeps) {
  return new Elysia({ name: "brisk:pages" }).all(
    "*",
    function servePage({ request }) {
      const record = recordOf(request);
      // Public files are static answers, like assets: no page transaction (the file's path is one the URL
      // parser leaves as it is, so the record's raw path finds it).
      const reading = request.method === "GET" || request.method === "HEAD";
      if (reading) {
        const file = deps.publicFile(request, record.path);
        if (file) return file;
      }
      const target = pageTarget(request);
      if (target instanceof Response) return target;
      // A prerendered page never gets here: it is answered before routing (served-from-store.ts).
      return monitorPage(deps.monitor, request, record, () => renderTarget(request, record, target, deps));
    },
    // The body is the action's, read by submission.ts only after the checks, within ACTION_MAX_BYTES.
    { parse: "none" },
  );
}
