// prerender-routes.ts: routes marked `prerender`, and the not-found page for unmatched paths, rendered once (at build
// time for the binary, just after listening otherwise) and kept; marked routes are rendered again in the
// background after `revalidate` seconds. prerendered-responses.ts serves requests from what it keeps.
import type { RouteDefinition } from "../../runtime/route.ts";
import { isResourceRoute, routeTree } from "../../runtime/route-tree.ts";
import { pageDataOf } from "../pages/page-data.ts";
import type { PageDeps, PageRequest } from "../pages/page-request.ts";
import { renderPage, renderResolved } from "../pages/render.tsx";
import { resolvePage } from "../pages/resolve-page.ts";
import { hasMiddleware } from "../pages/middleware.ts";
import { createRequestContext, reportError, type RequestRecord } from "../request/context.ts";
import { servePrerendered, type PageStore, type PrerenderedResponses } from "./prerendered-responses.ts";
import { SLOT_MARKERS, htmlOf } from "./page-slots.ts";
import { keptHeaders } from "./nonce-document.ts";
import { prerenderedData } from "./prerendered-data.ts";
import {
  prerenderedPage,
  type PrerenderedPages,
  type PrerenderedPage,
  type PrerenderedRoute,
} from "./prerendered-page.ts";

/** Why a route cannot be prerendered: it reads the request, sets a cookie, or does not answer 200. */
export class PrerenderError extends Error {
  override name = "PrerenderError";
}

/**
 * A request for a prerendered page: no form post, and its headers, cookies and search throw, since a prerendered
 * page cannot depend on them. `read` names the first one something tried.
 */
function guardedPage(href: string): { page: PageRequest; read: () => string | undefined } {
  let read: string | undefined;
  const refuse = (what: string): never => {
    read ??= what;
    throw new PrerenderError(`reads ${what} while prerendered`);
  };
  const base = new Request(href);
  const headers = new Proxy(base.headers, {
    get: (_, name) =>
      name === "get"
        ? (h: string) => refuse(h.toLowerCase() === "cookie" ? "cookies" : `the header ${h}`)
        : refuse("headers"),
  });
  const own = <T extends object>(target: T, trap: (name: string | symbol) => unknown) =>
    new Proxy(target, {
      get(t, name) {
        const special = trap(name);
        if (special !== undefined) return special;
        const value = Reflect.get(t, name, t);
        return typeof value === "function" ? value.bind(t) : value;
      },
    });
  const request = own(base, (name) => (name === "headers" ? headers : undefined));
  const url = own(new URL(base.url), (name) => (name === "searchParams" ? refuse("search") : undefined));
  return { page: { request, url, isData: false, context: createRequestContext(request) }, read: () => read };
}

function prerenderedHeaders(response: Response, what: string): Array<[string, string]> {
  if (response.headers.has("set-cookie")) throw new PrerenderError(`${what} is marked prerender, but it sets a cookie`);
  return keptHeaders(response.headers);
}

/**
 * With no monitor (a prerendered page must not carry the trace of the render that made it), and slots for the
 * nonce and the client configuration: components still read the configuration, its JSON is the slot. Shells
 * (shell/prerender-shell.tsx) are rendered with them too.
 */
export function prerenderingDeps(deps: PageDeps, nonce: string = SLOT_MARKERS.nonce): PageDeps {
  const clientConfig = { ...deps.clientConfig, toJSON: () => SLOT_MARKERS.config.slice(1, -1) };
  return {
    ...deps,
    clientConfig,
    monitor: undefined,
    security: { ...deps.security, nonce: () => nonce },
    capture: () => {},
  };
}

/** The page at `path`, a marked route's full pattern, rendered with every level above it. */
async function renderRoute(path: string, deps: PageDeps): Promise<PrerenderedRoute> {
  const what = `route ${path}`;
  const { page, read } = guardedPage(`http://${SLOT_MARKERS.host}${path}`);
  const { context } = page;
  const slotDeps = prerenderingDeps(deps);
  // One run of the loader for both: the document and the page data client navigation asks for.
  const resolved = await resolvePage(page, slotDeps);
  const response = await renderResolved(page, resolved, slotDeps);
  const data = pageDataOf({ ...page, isData: true, context: createRequestContext(page.request) }, resolved, slotDeps);
  const [html, body] = await Promise.all([response.text(), data.text()]);
  const reads = read();
  if (reads) throw new PrerenderError(`${what} is marked prerender, but its loader reads ${reads}`);
  if (response.status !== 200) {
    const why = context.errors[0]
      ? `${context.errors[0].name}: ${context.errors[0].message}`
      : `status ${response.status}`;
    throw new PrerenderError(`${what} is marked prerender, but its render answered ${why}`);
  }
  return {
    document: prerenderedPage(html, 200, prerenderedHeaders(response, what)),
    data: prerenderedData(body, prerenderedHeaders(data, what)),
  };
}

/** A path and search with every character the fill-in must escape, to check the prerendered page against a render. */
const CHECK_PATH = "/brisk-check/a&b'c\"d<e>f%20g";
const CHECK_SEARCH = "?q=<x>&y='z'";
const CHECK_NONCE = "Q2hlY2tOb25jZUNoZWNrTm9u";

/**
 * The not-found page, stored only when filling in the path gives exactly what a render of such a path gives:
 * an app's not-found page that shows more of the request (a header, a cookie, the time) renders every time.
 */
async function renderNotFound(deps: PageDeps, config: string): Promise<PrerenderedPage | null> {
  // A layout that matches every path (a root layout) shows its not-found page inside it, per request.
  if (deps.match(CHECK_PATH)) return null;
  const slotted = guardedPage(`http://${SLOT_MARKERS.host}${SLOT_MARKERS.path}?${SLOT_MARKERS.search}`);
  const response = await renderPage(slotted.page, prerenderingDeps(deps)).catch(() => undefined);
  if (!response || response.status !== 404 || slotted.read() || response.headers.has("set-cookie")) return null;
  const page = prerenderedPage(await response.text(), 404, prerenderedHeaders(response, "the not-found page"));
  const check = guardedPage(`http://check.invalid${CHECK_PATH}${CHECK_SEARCH}`);
  const liveDeps = { ...prerenderingDeps(deps, CHECK_NONCE), clientConfig: deps.clientConfig };
  const live = await renderPage(check.page, liveDeps);
  const { url } = check.page;
  const values = { nonce: CHECK_NONCE, host: url.hostname, path: url.pathname, search: url.search.slice(1), config };
  return (await live.text()) === htmlOf(page, values) ? page : null;
}

export interface Prerendered extends PrerenderedResponses {
  /**
   * Renders what the build did not store (once, however often it is called); rejects naming the first route
   * that cannot be prerendered. Until it is done, those routes render on every request as any other.
   */
  start(): Promise<void>;
  /** What a build keeps: everything stored so far. */
  pages(): PrerenderedPages;
}

export function prerenderRoutes(
  routes: readonly RouteDefinition[],
  deps: PageDeps,
  built?: PrerenderedPages,
): Prerendered {
  const marked = new Map(
    routeTree(routes)
      .nodes.filter(({ route }) => route.prerender)
      .map(({ pattern, route }) => [pattern, route]),
  );
  for (const [path, route] of marked) {
    if (/[:*]/.test(path)) throw new PrerenderError(`route ${path} is marked prerender, but its path has parameters`);
    if (route.children)
      throw new PrerenderError(`route ${path} is marked prerender, but it has children: mark the child to store`);
    if (isResourceRoute(route)) throw new PrerenderError(`route ${path} is marked prerender, but it has no page`);
    // A prerendered page is answered before any route code runs: a guard above it would never see its visitors.
    if (hasMiddleware(routeTree(routes).match(path)))
      throw new PrerenderError(`route ${path} is marked prerender, but it or a route above it has middleware`);
  }
  const prerendered = new Map<string, PrerenderedRoute>();
  // As the boot script's JSON holds it (render.tsx); page-slots.ts escapes it for the script's string.
  const config = JSON.stringify(deps.clientConfig);
  // A build's pages for routes still marked; a route renamed since is rendered at start.
  for (const [path, route] of Object.entries(built?.routes ?? {})) if (marked.has(path)) prerendered.set(path, route);
  let notFound = built?.notFound;
  const refreshing = new Set<string>();
  let started: Promise<void> | undefined;

  /** Stale-while-revalidate: one re-render at a time per route; a failed one keeps the page and is reported. */
  function refresh(path: string, record: RequestRecord) {
    const route = marked.get(path)!;
    const { document } = prerendered.get(path)!;
    if (!route.revalidate || Date.now() - document.renderedAt < route.revalidate * 1000 || refreshing.has(path)) return;
    refreshing.add(path);
    renderRoute(path, deps)
      .then(
        (fresh) => void prerendered.set(path, fresh),
        (error: unknown) => {
          // Tried again only after another full age: a failing loader is not re-run on every request.
          document.renderedAt = Date.now();
          reportError(record, error, "prerender", deps.capture);
        },
      )
      .finally(() => refreshing.delete(path));
  }

  async function renderMissing(): Promise<void> {
    const missing = [...marked.keys()].filter((path) => !prerendered.has(path));
    // The shells of routes marked `shell` are prerendered at the same moment (shell/shell-pages.ts).
    await Promise.all([
      ...missing.map(async (path) => void prerendered.set(path, await renderRoute(path, deps))),
      deps.shells?.start(),
    ]);
    if (notFound === undefined) notFound = await renderNotFound(deps, config);
  }

  const store: PageStore = { route: (path) => prerendered.get(path), notFound: () => notFound, served: refresh };
  return {
    ...servePrerendered(store, deps, config),
    start: () => (started ??= renderMissing()),
    pages: () => ({
      buildId: deps.assets.manifest.buildId,
      routes: Object.fromEntries(prerendered),
      notFound: notFound ?? null,
    }),
  };
}
