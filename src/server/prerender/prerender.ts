// prerender.ts: routes marked `prerender`, and the not-found page for unmatched paths, rendered once (at build
// time for the binary, just after listening otherwise); each request gets the stored page with its own nonce,
// host, path and request id put in, a strong ETag and a 304 on a match. Marked routes are re-rendered in the
// background after `revalidate` seconds.
import type { RouteDefinition } from "../../runtime/route.ts";
import { scriptJson } from "../../runtime/script-json.ts";
import { pickEncoding } from "../http/accept-encoding.ts";
import { encodedBody } from "../http/assets.ts";
import { etagMatches } from "../http/conditional.ts";
import { pageDataOf } from "../pages/page-data.ts";
import { renderPage, renderResolved, type RenderDeps } from "../pages/render.tsx";
import { resolvePage } from "../pages/resolve-page.ts";
import { createRequestRecord, reportError, type RequestRecord } from "../monitoring/request-record.ts";
import {
  SLOT_MARKERS,
  bytesOf,
  bodiesOf,
  gzipOf,
  htmlOf,
  storeData,
  storePage,
  type SlotValues,
  type StoredData,
  type StoredPage,
} from "./stored-page.ts";

/** A route's stored document and the page data client navigation asks for. */
interface StoredRoute {
  document: StoredPage;
  data: StoredData;
}

/** What a build stores (`prerendered.json` beside the client build), for the server to start with. */
export interface PrerenderedPages {
  buildId: string;
  routes: Record<string, StoredRoute>;
  /** null: this app's not-found page cannot be stored (it shows more of the request than its path). */
  notFound?: StoredPage | null;
}

/** Why a route cannot be prerendered: it reads the request, sets a cookie, or does not answer 200. */
export class PrerenderError extends Error {
  override name = "PrerenderError";
}

/** A request whose headers, cookies and search throw: a prerendered page cannot depend on them. */
function guardedRequest(href: string): { request: Request; url: URL; read: () => string | undefined } {
  let read: string | undefined;
  const refuse = (what: string): never => {
    read ??= what;
    throw new PrerenderError(`reads ${what} while prerendered`);
  };
  const base = new Request(href);
  const headers = new Proxy(base.headers, {
    get: (_, name) => (name === "get" ? (h: string) => refuse(h.toLowerCase() === "cookie" ? "cookies" : `the header ${h}`) : refuse("headers")),
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
  return { request, url, read: () => read };
}

/** Headers a response fills in for itself, and Vary, which the stored answer sets whole. */
const PER_RESPONSE = new Set(["content-security-policy", "x-request-id", "vary", "content-length"]);

function storedHeaders(response: Response, what: string): Array<[string, string]> {
  if (response.headers.has("set-cookie")) throw new PrerenderError(`${what} is marked prerender, but it sets a cookie`);
  return [...response.headers].filter(([name]) => !PER_RESPONSE.has(name));
}

/**
 * With no monitor (a stored page must not carry the trace of the render that made it), and slots for the
 * nonce and the client configuration: components still read the configuration, its JSON is the slot.
 */
function storingDeps(deps: RenderDeps, nonce: string = SLOT_MARKERS.nonce): RenderDeps {
  const clientConfig = { ...deps.clientConfig, toJSON: () => SLOT_MARKERS.config.slice(1, -1) };
  return { ...deps, clientConfig, monitor: undefined, security: { ...deps.security, nonce: () => nonce }, capture: () => {} };
}

async function renderRoute(route: RouteDefinition, deps: RenderDeps): Promise<StoredRoute> {
  const what = `route ${route.path}`;
  const { request, url, read } = guardedRequest(`http://${SLOT_MARKERS.host}${route.path}`);
  const record = createRequestRecord(request);
  const slotDeps = storingDeps(deps);
  // One run of the loader for both: the document and the page data client navigation asks for.
  const page = await resolvePage(request, url, record, slotDeps);
  const response = await renderResolved(request, url, page, record, slotDeps);
  const data = pageDataOf(page, createRequestRecord(request), slotDeps);
  const [html, body] = await Promise.all([response.text(), data.text()]);
  const reads = read();
  if (reads) throw new PrerenderError(`${what} is marked prerender, but its loader reads ${reads}`);
  if (response.status !== 200) {
    const why = record.errors[0] ? `${record.errors[0].name}: ${record.errors[0].message}` : `status ${response.status}`;
    throw new PrerenderError(`${what} is marked prerender, but its render answered ${why}`);
  }
  return { document: storePage(html, 200, storedHeaders(response, what)), data: storeData(body, storedHeaders(data, what)) };
}

/** A path and search with every character the fill-in must escape, to check the stored page against a render. */
const CHECK_PATH = "/brisk-check/a&b'c\"d<e>f%20g";
const CHECK_SEARCH = "?q=<x>&y='z'";
const CHECK_NONCE = "Q2hlY2tOb25jZUNoZWNrTm9u";

/**
 * The not-found page, stored only when filling in the path gives exactly what a render of such a path gives:
 * an app's not-found page that shows more of the request (a header, a cookie, the time) renders every time.
 */
async function renderNotFound(deps: RenderDeps, config: string): Promise<StoredPage | null> {
  const slotted = guardedRequest(`http://${SLOT_MARKERS.host}${SLOT_MARKERS.path}?${SLOT_MARKERS.search}`);
  const response = await renderPage(slotted.request, slotted.url, createRequestRecord(slotted.request), storingDeps(deps)).catch(() => undefined);
  if (!response || response.status !== 404 || slotted.read() || response.headers.has("set-cookie")) return null;
  const page = storePage(await response.text(), 404, storedHeaders(response, "the not-found page"));
  const check = guardedRequest(`http://check.invalid${CHECK_PATH}${CHECK_SEARCH}`);
  const liveDeps = { ...storingDeps(deps, CHECK_NONCE), clientConfig: deps.clientConfig };
  const live = await renderPage(check.request, check.url, createRequestRecord(check.request), liveDeps);
  const values = { nonce: CHECK_NONCE, host: check.url.hostname, path: check.url.pathname, search: check.url.search.slice(1), config };
  return (await live.text()) === htmlOf(page, values) ? page : null;
}

export interface Prerendered {
  /**
   * Renders what the build did not store (once, however often it is called); rejects naming the first route
   * that cannot be prerendered. Until it is done, those routes render on every request as any other.
   */
  start(): Promise<void>;
  /** What a build keeps: everything stored so far. */
  pages(): PrerenderedPages;
  /** The stored answer for a GET or HEAD of `url` (a document, or with `data` its page data), if any. */
  answer(request: Request, url: URL, record: RequestRecord, data: boolean): Response | undefined;
  /** Whether `answer` has a stored answer for `url`. */
  has(url: URL, data: boolean): boolean;
}

/**
 * Gzip only, when the visitor takes it: a page is joined from pieces compressed once, which brotli's format
 * does not allow around the nonce, and brotli per response costs ~20 times the CPU for 12 % fewer bytes.
 */
const DOCUMENT_CODINGS = ["gzip"] as const;

const templates = new WeakMap<StoredPage | StoredData, Headers>();

/** A stored answer's headers and its Vary, made once: each response copies them, cheaper than making them. */
function headersOf(stored: StoredPage | StoredData): Headers {
  let headers = templates.get(stored);
  if (!headers) {
    headers = new Headers(stored.headers);
    headers.set("vary", "Accept-Encoding");
    templates.set(stored, headers);
  }
  return headers;
}

/** `config`: this server's client configuration, as its stored pages' boot scripts carry it. */
function documentAnswer(request: Request, url: URL, record: RequestRecord, page: StoredPage, deps: RenderDeps, config: string): Response {
  const coding = pickEncoding(request.headers.get("accept-encoding"), DOCUMENT_CODINGS);
  // A 404 differs by path: no validator.
  const etag = page.status !== 200 ? undefined : coding ? `${page.etag.slice(0, -1)}-${coding}"` : page.etag;
  if (etag && etagMatches(request.headers.get("if-none-match"), etag)) {
    // No CSP: a cache would put the new nonce on the page it keeps.
    const notModified = new Response(null, { status: 304, headers: headersOf(page) });
    notModified.headers.delete("content-type");
    notModified.headers.set("etag", etag);
    notModified.headers.set("x-request-id", record.id);
    return notModified;
  }
  const nonce = deps.security.nonce();
  const values: SlotValues = { nonce, host: url.hostname, path: url.pathname, search: url.search.slice(1), config };
  const response = withBody(request, page.status, headersOf(page), coding, coding ? gzipOf(page, values) : bytesOf(page, values));
  const { headers } = response;
  headers.set("content-security-policy", deps.security.csp(nonce));
  headers.set("x-request-id", record.id);
  if (etag) headers.set("etag", etag);
  return response;
}

function dataAnswer(request: Request, record: RequestRecord, data: StoredData): Response {
  const [coding, body] = encodedBody(bodiesOf(data), request.headers.get("accept-encoding"));
  const response = withBody(request, 200, headersOf(data), coding, body);
  response.headers.set("x-request-id", record.id);
  return response;
}

/** The answer with its body, or for a HEAD the same headers with the length a GET's body has. */
function withBody(request: Request, status: number, template: Headers, coding: string | undefined, body: Uint8Array<ArrayBuffer>): Response {
  const head = request.method === "HEAD";
  const response = new Response(head ? null : body, { status, headers: template });
  if (coding) response.headers.set("content-encoding", coding);
  if (head) response.headers.set("content-length", String(body.length));
  return response;
}

export function prerenderRoutes(routes: readonly RouteDefinition[], deps: RenderDeps, built?: PrerenderedPages): Prerendered {
  const marked = new Map(routes.filter((r) => r.prerender).map((r) => [r.path, r]));
  for (const path of marked.keys()) {
    if (/[:*]/.test(path)) throw new PrerenderError(`route ${path} is marked prerender, but its path has parameters`);
  }
  const stored = new Map<string, StoredRoute>();
  const config = scriptJson(deps.clientConfig);
  // A build's pages for routes still marked; a route renamed since is rendered at start.
  for (const [path, route] of Object.entries(built?.routes ?? {})) if (marked.has(path)) stored.set(path, route);
  let notFound = built?.notFound;
  const refreshing = new Set<string>();
  let started: Promise<void> | undefined;

  /** Stale-while-revalidate: one re-render at a time per route; a failed one keeps the page and is reported. */
  function refresh(route: RouteDefinition, page: StoredRoute, record: RequestRecord) {
    const { document } = page;
    if (!route.revalidate || Date.now() - document.renderedAt < route.revalidate * 1000 || refreshing.has(route.path)) return;
    refreshing.add(route.path);
    renderRoute(route, deps)
      .then(
        (fresh) => void stored.set(route.path, fresh),
        (error: unknown) => {
          // Tried again only after another full age: a failing loader is not re-run on every request.
          document.renderedAt = Date.now();
          reportError(record, error, "prerender", deps.capture);
        },
      )
      .finally(() => refreshing.delete(route.path));
  }

  async function renderMissing(): Promise<void> {
    const missing = [...marked.values()].filter((route) => !stored.has(route.path));
    await Promise.all(missing.map(async (route) => void stored.set(route.path, await renderRoute(route, deps))));
    if (notFound === undefined) notFound = await renderNotFound(deps, config);
  }

  /** A marked route's page, or for an unmatched path the not-found page. */
  function lookup(url: URL, data: boolean): StoredRoute | StoredPage | undefined {
    const route = url.search ? undefined : stored.get(url.pathname);
    if (route || data || !notFound || deps.match(url.pathname)) return route;
    return notFound;
  }

  return {
    start: () => (started ??= renderMissing()),
    pages: () => ({ buildId: deps.assets.manifest.buildId, routes: Object.fromEntries(stored), notFound: notFound ?? null }),
    answer(request, url, record, data) {
      const found = lookup(url, data);
      if (!found) return undefined;
      if (found === notFound) return documentAnswer(request, url, record, found, deps, config);
      const route = found as StoredRoute;
      record.route = url.pathname;
      refresh(marked.get(url.pathname)!, route, record);
      return data ? dataAnswer(request, record, route.data) : documentAnswer(request, url, record, route.document, deps, config);
    },
    has: (url, data) => lookup(url, data) !== undefined,
  };
}
