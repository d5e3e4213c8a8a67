// html-response-headers.ts: the headers that govern a document, on an HTML response a route without a page made itself.
import type { SecurityHeaders } from "./security-headers.ts";

/** The types a browser shows as a document, where CSP, COOP and the referrer policy take effect. */
const DOCUMENT_TYPES = new Set(["text/html", "application/xhtml+xml"]);

/**
 * A response of a document type gets a document's headers, as a rendered page does: no one may frame it, and its
 * CSP runs no script (a route that serves scripts sets a CSP of its own). A header the route set is kept.
 * Any other response goes out as it is.
 */
export function withDocumentHeaders(response: Response, security: SecurityHeaders): Response {
  const type = response.headers.get("content-type")?.split(";", 1)[0]!.trim().toLowerCase();
  if (type === undefined || !DOCUMENT_TYPES.has(type)) return response;
  for (const [name, value] of Object.entries(security.scriptlessHtml)) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  return response;
}
