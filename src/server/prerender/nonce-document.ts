// nonce-document.ts: the response from a document kept as bytes with its nonce's places blank (a prerendered page,
// a render cache's answer): this response's nonce written in, a weak ETag per coding, and a 304 or 412 by the
// preconditions. The request pipeline adds the request id and the common security headers, as to every response.
import { pickEncoding } from "../http/accept-encoding.ts";
import { precondition, preconditionFailed } from "../http/conditional.ts";
import type { SecurityHeaders } from "../http/security-headers.ts";
import type { Bytes } from "../request/responses.ts";

/**
 * Gzip only, when the visitor takes it: a page is joined from pieces compressed once, which brotli's format
 * does not allow around the nonce, and brotli per response costs many times the CPU for a few percent fewer
 * bytes (bench/README.md, prerendered pages).
 */
const DOCUMENT_CODINGS = ["gzip"] as const;

export type DocumentCoding = (typeof DOCUMENT_CODINGS)[number] | undefined;

/**
 * Headers each response makes for itself (the CSP names its nonce; the id and the trace are the request's), and
 * those a kept form sets whole (its Vary, length, coding and ETag).
 */
const PER_RESPONSE = new Set([
  "content-security-policy",
  "x-request-id",
  "sentry-trace",
  "baggage",
  "vary",
  "content-length",
  "content-encoding",
  "etag",
]);

/** A render's headers as a kept page or answer keeps them: without those each response makes for itself. */
export function keptHeaders(rendered: Headers): Array<[string, string]> {
  return [...rendered].filter(([name]) => !PER_RESPONSE.has(name));
}

/** A kept document as its responses read it. */
export interface NonceDocument {
  status: number;
  /** Of the page as rendered, nonce aside: it changes only when the page does. */
  etag: string;
  /** Its headers but the CSP (which names the nonce) and the request id, made once: each response copies them. */
  headers: Headers;
}

/**
 * A kept document's ETag in one coding: weak, as each answer's bytes differ by its nonce and a strong tag would
 * promise the same bytes (RFC 9110 8.8.1), so If-Match, which compares strongly, holds only for `*`. One per
 * coding, so that a cache never revalidates the gzip answer it kept into an uncompressed one.
 */
function documentEtag(etag: string, coding: DocumentCoding): string {
  return `W/${coding ? `${etag.slice(0, -1)}-${coding}"` : etag}`;
}

/** The 304 or 412 a kept document's preconditions ask for instead of the page, if any. */
function conditionalDocument(request: Request, document: NonceDocument, etag: string): Response | undefined {
  const status = precondition(request, { etag });
  if (status === 412) return preconditionFailed();
  if (status !== 304) return undefined;
  // No CSP: a cache would put the new nonce on the page it keeps.
  const notModified = new Response(null, { status, headers: document.headers });
  notModified.headers.delete("content-type");
  notModified.headers.set("etag", etag);
  return notModified;
}

/** The document's response, its body as `bodyOf` makes it in the coding the visitor takes with a new nonce. */
export function nonceDocumentResponse(
  request: Request,
  document: NonceDocument,
  security: SecurityHeaders,
  bodyOf: (coding: DocumentCoding, nonce: string) => Bytes,
): Response {
  const coding = pickEncoding(request.headers.get("accept-encoding"), DOCUMENT_CODINGS);
  // A 404 differs by path: no validator, and no preconditions, which only a 2xx answer heeds (RFC 9110 13.2.1).
  const etag = document.status !== 200 ? undefined : documentEtag(document.etag, coding);
  const conditional = etag && conditionalDocument(request, document, etag);
  if (conditional) return conditional;
  const nonce = security.nonce();
  const response = withBody(request, document.status, document.headers, coding, bodyOf(coding, nonce));
  const { headers } = response;
  headers.set("content-security-policy", security.csp(nonce));
  if (etag) headers.set("etag", etag);
  return response;
}

/** The response with its body, or for a HEAD the same headers with the length a GET's body has. */
export function withBody(
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
