// precompressed.ts: a body kept with its forms compressed ahead of time, and the form a client takes best.
import { pickEncoding } from "../http/accept-encoding.ts";
import type { Bytes } from "../request/bytes.ts";

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
  const encoding = accept ? pickEncoding(accept, ENCODINGS.filter((e) => asset[e])) : undefined;
  return [encoding, encoding ? asset[encoding]! : asset.body];
}
