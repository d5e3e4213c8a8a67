// cookie-signer.ts: signs cookie values with HMAC-SHA256 and verifies them against every secret in rotation.
//
// createCookieSigner(secrets) keys one HMAC hasher per secret, once. sign(value, name) gives
// `value.<signature>`: the signature is base64url HMAC-SHA256 of `name=value` with the FIRST secret, so a
// value signed for one cookie does not verify as another. verify(signed, name) gives the value back when
// the signature matches ANY secret (rotation: put the new secret first, keep the old ones until their
// cookies have expired), and undefined for anything else: unsigned, tampered, truncated, signed with a
// retired secret, or not a string at all. The comparison takes the same time wherever the bytes differ.
// sign(value, name, purpose) and verify(signed, name, purpose) MAC `<purpose> name=value` instead: a value
// signed for a purpose (a session) verifies for that purpose only, never as a plain signed value nor for
// another purpose, and no plain one verifies for it. No cookie name holds a space, so the two inputs never
// meet; a purpose holds none either.
import { timingSafeEqual } from "node:crypto";

export interface CookieSigner {
  sign(value: string, name?: string, purpose?: string): Promise<string>;
  verify(signed: unknown, name?: string, purpose?: string): Promise<string | undefined>;
}

/** base64url without padding of a 32-byte HMAC-SHA256. */
const SIGNATURE_CHARS = 43;

export async function createCookieSigner(secrets: readonly string[]): Promise<CookieSigner> {
  if (secrets.length === 0) throw new Error("cookie signer: at least one secret is needed");
  // Bun's hasher, not Web Crypto: crypto.subtle.sign is a round trip off the JS thread, a keyed hasher copied
  // per call a fraction of that (bench/README.md, per layer), and a page behind a session checks a cookie on
  // every request.
  const keys = secrets.map((secret) => new Bun.CryptoHasher("sha256", secret));
  const mac = (key: Bun.CryptoHasher, name: string, value: string, purpose: string | undefined) =>
    key
      .copy()
      .update(purpose === undefined ? `${name}=${value}` : `${purpose} ${name}=${value}`)
      .digest();
  return {
    async sign(value, name = "", purpose) {
      return `${value}.${mac(keys[0]!, name, value, purpose).toString("base64url")}`;
    },
    async verify(signed, name = "", purpose) {
      if (typeof signed !== "string") return undefined;
      const dot = signed.length - SIGNATURE_CHARS - 1;
      if (dot < 0 || signed[dot] !== ".") return undefined;
      const given = Buffer.from(signed.slice(dot + 1), "base64url");
      // Node's decoder also takes standard base64 and skips stray characters: only the canonical spelling counts.
      if (given.length !== 32 || given.toString("base64url") !== signed.slice(dot + 1)) return undefined;
      const value = signed.slice(0, dot);
      for (const key of keys) {
        if (timingSafeEqual(mac(key, name, value, purpose), given)) return value;
      }
      return undefined;
    },
  };
}
