// precompressed.ts: a body kept with its forms compressed ahead of time, the form a client takes best, and
// each form's own ETag.
import { pickEncoding } from "../http/accept-encoding.ts";
import { etagOf } from "../http/conditional.ts";
import type { Bytes } from "../request/responses.ts";

/** A body with the forms compressed ahead of time, if any. */
export interface Precompressed {
  body: Bytes;
  br?: Bytes;
  gzip?: Bytes;
}

/** Brotli first: the smaller of the two when a client takes both alike. */
const ENCODINGS = ["br", "gzip"] as const;

/** The form the client accepts best (RFC 9110 weights), and its bytes. */
export function encodedBody(asset: Precompressed, accept: string | null): ["br" | "gzip" | undefined, Bytes] {
  const encoding = accept
    ? pickEncoding(
        accept,
        ENCODINGS.filter((e) => asset[e]),
      )
    : undefined;
  return [encoding, encoding ? asset[encoding]! : asset.body];
}

const etags = new WeakMap<Bytes, string>();

/**
 * The ETag of one form of a body, hashed once: each form has its own, as its bytes differ, so a cache that kept
 * the brotli answer never revalidates it into a gzip one (RFC 9110 8.8.3.3).
 */
export function etagOfForm(bytes: Bytes): string {
  let etag = etags.get(bytes);
  if (etag === undefined) etags.set(bytes, (etag = etagOf(bytes)));
  return etag;
}
