// new-digest.ts: the short id that names one failure, made the same way on the server and in the browser.

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** 10 base-36 characters from the CSPRNG: ~52 bits, unique per occurrence in practice. */
export function newDigest(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  let out = "";
  for (const b of bytes) out += ALPHABET[b % 36];
  return out;
}
