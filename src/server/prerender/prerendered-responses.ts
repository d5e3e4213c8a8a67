// prerendered-responses.ts: the response from a prerendered page: its pieces joined with this response's nonce,
// host and path (nonce-document.ts makes the response, its ETag and preconditions). Nothing of the app runs and
// nothing renders here; prerender-routes.ts renders and keeps the pages, and the request pipeline adds the
// request id, as to every response it sends.
import type { RouteMatch } from "../../runtime/route-tree.ts";
import { encodedBody } from "../assets/precompressed.ts";
import type { SecurityHeaders } from "../http/security-headers.ts";
import type { RequestRecord } from "../request/context.ts";
import type { SlotValues } from "./page-slots.ts";
import { bodiesOf, type PrerenderedData } from "./prerendered-data.ts";
import { bytesOf, gzipOf, type PrerenderedPage, type PrerenderedRoute } from "./prerendered-page.ts";
import { nonceDocumentResponse, withBody } from "./nonce-document.ts";

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

function dataResponse(request: Request, data: PrerenderedData, headersOf: HeadersOf): Response {
  const [coding, body] = encodedBody(bodiesOf(data), request.headers.get("accept-encoding"));
  return withBody(request, 200, headersOf(data), coding, body);
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
  return nonceDocumentResponse(
    request,
    { status: page.status, etag: page.etag, headers: headersOf(page) },
    security,
    (coding, nonce) => {
      const values: SlotValues = { nonce, host: url.hostname, path: url.pathname, search: url.search.slice(1), config };
      return coding ? gzipOf(page, values) : bytesOf(page, values);
    },
  );
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
