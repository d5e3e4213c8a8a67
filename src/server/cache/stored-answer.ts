// stored-answer.ts: a rendered answer as the render cache keeps it, and the response made from it. A document is
// kept as its bytes with the nonce's places blank, uncompressed and as one gzip member (the prerendered pages' way,
// prerender/gzip-join.ts), so a response only writes its own nonce in; page data, which has no nonce, is kept
// whole, compressed once in each coding.
import zlib from "node:zlib";
import { encodedBody, type Precompressed } from "../assets/precompressed.ts";
import { etagOf } from "../http/conditional.ts";
import type { SecurityHeaders } from "../http/security-headers.ts";
import { fromBase64 } from "../prerender/base64.ts";
import { deflatePage, gzipMember, gzipTemplate } from "../prerender/gzip-join.ts";
import { keptHeaders, nonceDocumentResponse, withBody } from "../prerender/nonce-document.ts";
import { BLANK_NONCE, nonceBytes, template, withNonce, type Template } from "../prerender/nonce-template.ts";
import type { Slot } from "../prerender/page-slots.ts";

export interface StoredDocument {
  readonly kind: "document";
  readonly status: number;
  readonly etag: string;
  readonly headers: Headers;
  readonly identity: Template;
  readonly gzip: Template;
}

export interface StoredData {
  readonly kind: "data";
  readonly status: number;
  readonly headers: Headers;
  readonly bodies: Precompressed;
}

export type StoredAnswer = StoredDocument | StoredData;

/** The kept headers, with the Vary every answer kept per coding has. */
function headersOf(rendered: Headers): Headers {
  const headers = new Headers(keptHeaders(rendered));
  headers.set("vary", "Accept-Encoding");
  return headers;
}

const encoder = new TextEncoder();

/**
 * A rendered document whose response carried `nonce`: each place the nonce was written becomes a blank a later
 * response fills. The nonce is 24 random characters, so it is nowhere else in the page.
 */
export function storedDocument(html: string, nonce: string, status: number, rendered: Headers): StoredDocument {
  const parts = html.split(nonce);
  const slots: Slot[] = parts.slice(1).map(() => ({ name: "nonce", inScript: false }));
  const deflated = deflatePage({ parts, slots });
  const chunks: Uint8Array[] = [];
  for (const [i, part] of parts.entries()) chunks.push(...(i ? [BLANK_NONCE] : []), encoder.encode(part));
  const identity = template(chunks);
  const blanks = slots.map(() => BLANK_NONCE);
  const gzip = gzipTemplate({ slots, deflated }, blanks, deflated.segments.map(fromBase64));
  return { kind: "document", status, etag: etagOf(identity.bytes), headers: headersOf(rendered), identity, gzip };
}

/**
 * Brotli at a middle quality: a kept answer is compressed once per render, on a miss, where 11 would hold the
 * request that rendered it for many milliseconds on a large page.
 */
const BROTLI = {
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 6,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  },
};

export function storedData(body: Uint8Array<ArrayBuffer>, status: number, rendered: Headers): StoredData {
  const bodies = { body, br: zlib.brotliCompressSync(body, BROTLI), gzip: zlib.gzipSync(body, { level: 9 }) };
  return { kind: "data", status, headers: headersOf(rendered), bodies };
}

/** The bytes an answer holds. */
export function answerBytes(answer: StoredAnswer): number {
  if (answer.kind === "data") {
    const { body, br, gzip } = answer.bodies;
    return body.length + (br?.length ?? 0) + (gzip?.length ?? 0);
  }
  return answer.identity.bytes.length + answer.gzip.bytes.length;
}

export function storedResponse(request: Request, answer: StoredAnswer, security: SecurityHeaders): Response {
  if (answer.kind === "data") {
    const [coding, body] = encodedBody(answer.bodies, request.headers.get("accept-encoding"));
    return withBody(request, answer.status, answer.headers, coding, body);
  }
  return nonceDocumentResponse(request, answer, security, (coding, nonce) => {
    const bytes = nonceBytes(nonce);
    return coding ? gzipMember(answer.gzip, answer.identity, bytes) : withNonce(answer.identity, bytes);
  });
}
