// prerendered-responses.ts: the response from a prerendered page: its pieces joined with this response's nonce,
// host and path, a weak ETag per coding, and a 304 or 412 by the preconditions. Nothing of the app runs and
// nothing renders here; prerender-routes.ts renders and keeps the pages, and the request pipeline adds the
// request id, as to every response it sends.
import type { RouteMatch } from "../../runtime/route-tree.ts";
import { pickEncoding } from "../http/accept-encoding.ts";
import { precondition, preconditionFailed } from "../http/conditional.ts";
import { encodedBody } from "../assets/precompressed.ts";
import type { SecurityHeaders } from "../http/security-headers.ts";
import type { RequestRecord } from "../request/context.ts";
import type { SlotValues } from "./page-slots.ts";
import { bodiesOf, type PrerenderedData } from "./prerendered-data.ts";
import { bytesOf, gzipOf, type PrerenderedPage, type PrerenderedRoute } from "./prerendered-page.ts";

/** The pages stored so far, as the serving side reads them. */
export interface PageStore {
  route(path: string): PrerenderedRoute | undefined;
  /** null or undefined: unmatched paths render. */
  notFound(): PrerenderedPage | null | undefined;
  /** A prerendered route was served: the store renders it again in the background once it is past its age. */
  served(path: string, record: RequestRecord): void;
}

export interface PrerenderedResponses {
  /** The prerendered response for a GET or HEAD of `url` (a document, or with `data` its page data), if any. */
  response(request: Request, url: URL, record: RequestRecord, data: boolean): Response | undefined;
}

interface ServeDeps {
  security: SecurityHeaders;
  match(pathname: string): RouteMatch | null;
}

/**
 * Gzip only, when the visitor takes it: a page is joined from pieces compressed once, which brotli's format
 * does not allow around the nonce, and brotli per response costs many times the CPU for a few percent fewer
 * bytes (bench/README.md, prerendered pages).
 */
const DOCUMENT_CODINGS = ["gzip"] as const;

type HeadersOf = (prerendered: PrerenderedPage | PrerenderedData) => Headers;

/**
 * A prerendered page's headers, with its Vary and this server's common security headers (a build's pages may
 * come from another configuration), made once: each response copies them, cheaper than making them.
 */
function headerTemplates(security: SecurityHeaders): HeadersOf {
  const templates = new WeakMap<PrerenderedPage | PrerenderedData, Headers>();
  return (prerendered) => {
    let headers = templates.get(prerendered);
    if (!headers) {
      headers = new Headers(prerendered.headers);
      headers.set("vary", "Accept-Encoding");
      for (const [name, value] of Object.entries(security.common)) headers.set(name, value);
      templates.set(prerendered, headers);
    }
    return headers;
  };
}

/**
 * A stored page's ETag in one coding: weak, as each answer's bytes differ by its nonce and a strong tag would
 * promise the same bytes (RFC 9110 8.8.1), so If-Match, which compares strongly, holds only for `*`. One per
 * coding, so that a cache never revalidates the gzip answer it kept into an uncompressed one.
 */
function documentEtag(page: PrerenderedPage, coding: string | undefined): string {
  return `W/${coding ? `${page.etag.slice(0, -1)}-${coding}"` : page.etag}`;
}

/** The 304 or 412 a stored page's preconditions ask for instead of the page, if any. */
function conditionalDocument(
  request: Request,
  page: PrerenderedPage,
  etag: string,
  headersOf: HeadersOf,
): Response | undefined {
  const status = precondition(request, { etag });
  if (status === 412) return preconditionFailed();
  if (status !== 304) return undefined;
  // No CSP: a cache would put the new nonce on the page it keeps.
  const notModified = new Response(null, { status, headers: headersOf(page) });
  notModified.headers.delete("content-type");
  notModified.headers.set("etag", etag);
  return notModified;
}

/** `config`: this server's client configuration, as its prerendered pages' boot scripts carry it. */
function documentResponse(
  request: Request,
  url: URL,
  page: PrerenderedPage,
  headersOf: HeadersOf,
  security: SecurityHeaders,
  config: string,
): Response {
  const coding = pickEncoding(request.headers.get("accept-encoding"), DOCUMENT_CODINGS);
  // A 404 differs by path: no validator, and no preconditions, which only a 2xx answer heeds (RFC 9110 13.2.1).
  const etag = page.status !== 200 ? undefined : documentEtag(page, coding);
  const conditional = etag && conditionalDocument(request, page, etag, headersOf);
  if (conditional) return conditional;
  const nonce = security.nonce();
  const values: SlotValues = { nonce, host: url.hostname, path: url.pathname, search: url.search.slice(1), config };
  const response = withBody(
    request,
    page.status,
    headersOf(page),
    coding,
    coding ? gzipOf(page, values) : bytesOf(page, values),
  );
  const { headers } = response;
  headers.set("content-security-policy", security.csp(nonce));
  if (etag) headers.set("etag", etag);
  return response;
}

function dataResponse(request: Request, data: PrerenderedData, headersOf: HeadersOf): Response {
  const [coding, body] = encodedBody(bodiesOf(data), request.headers.get("accept-encoding"));
  return withBody(request, 200, headersOf(data), coding, body);
}

/** The response with its body, or for a HEAD the same headers with the length a GET's body has. */
function withBody(
  request: Request,
  status: number,
  template: Headers,
  coding: string | undefined,
  body: Uint8Array<ArrayBuffer>,
): Response {
  const head = request.method === "HEAD";
  const response = new Response(head ? null : body, { status, headers: template });
  if (coding) response.headers.set("content-encoding", coding);
  if (head) response.headers.set("content-length", String(body.length));
  return response;
}

export function servePrerendered(store: PageStore, deps: ServeDeps, config: string): PrerenderedResponses {
  const headersOf = headerTemplates(deps.security);

  /** A marked route's page, or for an unmatched path the not-found page. */
  function find(url: URL, data: boolean): PrerenderedRoute | PrerenderedPage | undefined {
    const route = url.search ? undefined : store.route(url.pathname);
    const notFound = store.notFound();
    if (route || data || !notFound || deps.match(url.pathname)) return route;
    return notFound;
  }

  return {
    response(request, url, record, data) {
      const found = find(url, data);
      if (!found) return undefined;
      if (!("document" in found)) return documentResponse(request, url, found, headersOf, deps.security, config);
      record.route = url.pathname;
      store.served(url.pathname, record);
      return data
        ? dataResponse(request, found.data, headersOf)
        : documentResponse(request, url, found.document, headersOf, deps.security, config);
    },
  };
}
