// pages.ts: the page routes: HTTP checks, then an HTML document or page data.
import { Elysia } from "elysia";
import { BUILD_HEADER } from "../../runtime/page-payload.ts";
import { allowedMethods, isResourceRoute } from "../../runtime/route-tree.ts";
import { compressed } from "../http/compress.ts";
import { contextOf, type ContextOptions, type RequestContext } from "../request/context.ts";
import { pageTarget, type PageTarget } from "./page-target.ts";
import { readSubmission, refuseCrossSite } from "../bodies/submission.ts";
import { text } from "../request/responses.ts";
import { renderPageData } from "./page-data.ts";
import type { PageDeps, PageRequest } from "./page-request.ts";
import { renderPage } from "./render.tsx";
import { shedPage } from "./render-limit.ts";
import { pageScope } from "./page-scope.ts";
import { resourceResponse } from "./resource.ts";
import { hasMiddleware, runMiddleware } from "./middleware.ts";

/**
 * Renders the page a request asks for: no public file, no prerendered page. Exported for the bench alone
 * (bench/layers.ts, bench/ablation-server.ts), which runs it without Elysia; the server goes through pagesPlugin.
 */
export async function handlePage(context: RequestContext, deps: PageDeps): Promise<Response> {
  const target = pageTarget(context);
  return target instanceof Response ? target : pageResponse(context, target, deps);
}

/**
 * The page's response. `refresh`: a render that replaces a stale answer in the render cache, which no visitor reads:
 * never answered from the cache, nor compressed. A page with middleware is looked up in the cache once its middleware
 * has run (one without, before routing: stored-step.ts).
 */
async function pageResponse(context: RequestContext, target: PageTarget, deps: PageDeps, refresh = false) {
  const { request } = context;
  const match = (target.match ??= deps.match(target.url.pathname));
  const allowed = allowedMethods(match);
  if (!allowed.includes(request.method)) return text(405, "method not allowed", { allow: allowed.join(", ") });
  const posted = request.method === "POST";
  if (posted) {
    // A form posted by a page of another build: refused before its action runs, so the client can send it
    // again as a document post, which this build answers.
    const build = target.isData ? request.headers.get(BUILD_HEADER) : null;
    if (build !== null && build !== deps.assets.manifest.buildId)
      return text(409, "the page is from another build; send the form again");
    const crossSite = refuseCrossSite(request, target.url, deps);
    if (crossSite) return crossSite;
  }
  const page: PageRequest = { request, context, ...target, match };
  const cached = deps.cached?.answerFor(target, match, request.method);
  const answer = (page: PageRequest) =>
    cached ? cached(page, !refresh, () => respond(page, false, untraced(deps))) : respond(page, posted, deps);
  // Development pages go as they are: the dev server appends its reload script to the HTML stream.
  const finish = (response: Response) =>
    deps.mode === "production" && !refresh ? compressed(request, response) : response;
  // Not a function of its own: a server error's stack keeps only so many frames, and Elysia's should be among them.
  if (!hasMiddleware(match)) return finish(await answer(page));
  const scope = (page.scope = pageScope(context, request, target.url, deps.cookies));
  // The body is read inside the middleware: a guard refuses a post before it is uploaded and stored.
  return finish(await runMiddleware(request, match, scope, (failure) => answer(failure ? { ...page, failure } : page)));
}

const untracedDeps = new WeakMap<PageDeps, PageDeps>();

/**
 * The deps without the browser's trace: a kept page goes to every visitor, and its boot script would have them all
 * continue the trace of the request that rendered it. Its steps are still traced.
 */
function untraced(deps: PageDeps): PageDeps {
  if (!deps.monitor?.traceHeaders) return deps;
  let kept = untracedDeps.get(deps);
  if (!kept) untracedDeps.set(deps, (kept = { ...deps, monitor: { ...deps.monitor, traceHeaders: undefined } }));
  return kept;
}

/**
 * Renders a cached page again as a visitor without cookies or headers asks it (a stale answer's refresh): kept if
 * it may be, never answered from the cache.
 */
export function renderAgain(href: string, deps: PageDeps, options: ContextOptions): Promise<Response> {
  const context = contextOf(new Request(href), options);
  const target = pageTarget(context);
  return target instanceof Response ? Promise.resolve(target) : pageResponse(context, target, deps, true);
}

/** The page's response once the middleware let it through (or failed): the post's body read, then the route's response. */
async function respond(page: PageRequest, posted: boolean, deps: PageDeps): Promise<Response> {
  if (posted && !page.failure) {
    const read = await readSubmission(page.request, deps);
    if (read instanceof Response) return read;
    page.submission = read;
    if (page.scope) page.scope.body = read;
  }
  return page.request.method === "HEAD" ? headOf(page, deps) : routeResponse(page, deps);
}

/** What the matched route answers: the document, its page data, or what a route without a page returns. */
function routeResponse(page: PageRequest, deps: PageDeps): Promise<Response> {
  const { match } = page;
  if (match && isResourceRoute(match.route)) return resourceResponse(page, match, deps);
  if (page.isData) return renderPageData(page, deps);
  return deps.shells?.respond(page, deps) ?? renderPage(page, deps);
}

/**
 * A HEAD renders as far as the status and headers, then stops the rest with a signal of its own. Cancelling
 * the body alone would abort React "without a reason" while the visitor's signal is still live, and every
 * HEAD on a streamed page would be logged and reported as a failed render.
 */
async function headOf(page: PageRequest, deps: PageDeps): Promise<Response> {
  const stop = new AbortController();
  const head = new Request(page.request, { signal: AbortSignal.any([page.request.signal, stop.signal]) });
  const response = await routeResponse({ ...page, request: head }, deps);
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
    function servePage({ request, server }) {
      const context = contextOf(request);
      const target = pageTarget(context);
      if (target instanceof Response) return target;
      // Public files and prerendered pages never get here: the pipeline answers them before routing (stored-step.ts).
      const render = () => pageResponse(context, target, deps);
      return deps.renders.run(request, server, context, render) ?? shedPage(target.isData, deps.security, context);
    },
    // The body is the action's, read by submission.ts only after the checks, within ACTION_MAX_BYTES.
    { parse: "none" },
  );
}
