// nonce-template.ts: a response's bytes joined once with its nonce's places left blank, copied per response
// with that response's nonce written in: one copy of the page instead of a join of its pieces.
import type { Bytes } from "../request/responses.ts";

/** The nonce is always this long (16 random bytes in base64), so back-references may reach across it. */
const NONCE_LENGTH = 24;

/** The bytes of a response but its nonce, and where each copy of the nonce goes. */
export interface Template {
  bytes: Bytes;
  nonces: number[];
}

/** Stands for the nonce in a template's chunks, recognised by identity: its place is left for the response's. */
export const BLANK_NONCE = new Uint8Array(NONCE_LENGTH);

const encoder = new TextEncoder();

export function joined(chunks: readonly Uint8Array[]): Bytes {
  return Bun.concatArrayBuffers([...chunks], Infinity, true);
}

export function template(chunks: readonly Uint8Array[]): Template {
  const nonces: number[] = [];
  let at = 0;
  for (const chunk of chunks) {
    if (chunk === BLANK_NONCE) nonces.push(at);
    at += chunk.length;
  }
  return { bytes: joined(chunks), nonces };
}

/** Throws unless `length` is a nonce's: a prerendered page's bytes leave exactly that much room for it. */
export function checkNonceLength(length: number): void {
  if (length !== NONCE_LENGTH) throw new Error(`a nonce of ${length} bytes; prerendered pages take ${NONCE_LENGTH}`);
}

/** A response's nonce as the bytes its templates take. */
export function nonceBytes(nonce: string): Uint8Array {
  // Base64: one byte a character.
  checkNonceLength(nonce.length);
  return encoder.encode(nonce);
}

/** A copy of the template with the nonce written in, and `after` it the chunks given: one copy of them all. */
export function withNonce({ bytes, nonces }: Template, nonce: Uint8Array, after: readonly Uint8Array[] = []): Bytes {
  let length = bytes.length;
  for (const chunk of after) length += chunk.length;
  const body = after.length === 0 ? bytes.slice() : new Uint8Array(length);
  if (after.length > 0) body.set(bytes);
  for (const at of nonces) body.set(nonce, at);
  let at = bytes.length;
  for (const chunk of after) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return body;
}
