// sentry-request.ts: what a server event says about its request: its data (query secrets filtered, the Referer's
// too), the visitor's address, a breadcrumb.
import { _INTERNAL_filterQueryParams, defineIntegration, winterCGRequestToRequestData, type Event } from "@sentry/core";
import { MASKED_QUERY_NAMES } from "../../runtime/masked-query.ts";

/** Kept on each request's isolation scope; turned into event data only when an event is sent. */
export interface ScopedRequest {
  request: Request;
  /**
   * The visitor's address, only with SENTRY_SEND_DEFAULT_PII. Taken when the request arrives: by the time an
   * event is processed the socket may be gone.
   */
  ip?: string;
  /** Epoch milliseconds. */
  start: number;
}

export const SCOPED_REQUEST_KEY = "briskRequest";

/** Credentials never leave the server, whatever SENTRY_SEND_DEFAULT_PII says; Sentry masks other sensitive names. */
const CREDENTIAL_HEADERS = ["authorization", "proxy-authorization"];

/** Sentry's filter of query values (`dataCollection.urlQueryParams`), with the names Brisk masks too. */
export const QUERY_FILTER = { deny: MASKED_QUERY_NAMES };

type QueryFilter = Parameters<typeof _INTERNAL_filterQueryParams>[1];

/** `url` with its query values filtered as Sentry filters the event's own URL. */
function filterUrlQuery(url: string, filter: QueryFilter): string {
  const start = url.indexOf("?");
  if (start === -1) return url;
  const end = url.indexOf("#", start);
  const query = url.slice(start + 1, end === -1 ? undefined : end);
  // The SDK's own filter, so a name is masked in the Referer exactly when it is in the URL (@sentry/core is pinned).
  const filtered = _INTERNAL_filterQueryParams(query, filter);
  return `${url.slice(0, start)}${filtered ? `?${filtered}` : ""}${end === -1 ? "" : url.slice(end)}`;
}

function scopedRequestOf(event: Event): ScopedRequest | undefined {
  return event.sdkProcessingMetadata?.[SCOPED_REQUEST_KEY] as ScopedRequest | undefined;
}

/**
 * Gives each event the request of its scope, in the form Sentry's RequestData integration reads (run it
 * after this one, with `include.ip: false`: it then takes no address from headers, which a visitor can
 * write), its Referer's query filtered as the URL's is, and the visitor's address when the scope has one.
 * Error events also start with a breadcrumb for the request. Done here, at event time, so a request that
 * causes no event costs nothing.
 */
export const scopedRequestIntegration = defineIntegration(() => ({
  name: "BriskScopedRequest",
  processEvent(event, _hint, client) {
    const scoped = scopedRequestOf(event);
    if (!scoped) return event;
    const { request, ip, start } = scoped;
    const normalizedRequest = winterCGRequestToRequestData(request);
    const headers = normalizedRequest.headers;
    for (const name of CREDENTIAL_HEADERS) delete headers?.[name];
    // The page the visitor came from can hold a secret in its query (a reset link's token) as the URL can.
    if (headers?.referer)
      headers.referer = filterUrlQuery(headers.referer, client.getOptions().dataCollection?.urlQueryParams ?? true);
    event.sdkProcessingMetadata = { ...event.sdkProcessingMetadata, normalizedRequest };
    if (ip) event.user = { ...event.user, ip_address: ip };
    if (!event.type) {
      // The path only: a query can hold what the RequestData integration filters from the event's URL.
      const path = new URL(request.url).pathname;
      const crumb = {
        type: "http",
        category: "request",
        level: "info" as const,
        timestamp: start / 1000,
        data: { method: request.method, path },
      };
      event.breadcrumbs = [crumb, ...(event.breadcrumbs ?? [])];
    }
    return event;
  },
}));
