// cookie-signer.ts: signs cookie values with HMAC-SHA256 (Web Crypto) and verifies them against every secret in rotation.
//
// createCookieSigner(secrets) imports each secret once as an HMAC key. sign(value, name) gives
// `value.<signature>`: the signature is base64url HMAC-SHA256 of `name=value` with the FIRST secret, so a
// value signed for one cookie does not verify as another. verify(signed, name) gives the value back when
// the signature matches ANY secret (rotation: put the new secret first, keep the old ones until their
// cookies have expired), and undefined for anything else: unsigned, tampered, truncated, signed with a
// retired secret, or not a string at all. The comparison takes the same time wherever the bytes differ.
import { timingSafeEqual } from "node:crypto";

export interface CookieSigner {
  sign(value: string, name?: string): Promise<string>;
  verify(signed: unknown, name?: string): Promise<string | undefined>;
}

/** base64url without padding of a 32-byte HMAC-SHA256. */
const SIGNATURE_CHARS = 43;
const utf8 = new TextEncoder();

export async function createCookieSigner(secrets: readonly string[]): Promise<CookieSigner> {
  if (secrets.length === 0) throw new Error("cookie signer: at least one secret is needed");
  const keys = await Promise.all(
    secrets.map((secret) => crypto.subtle.importKey("raw", utf8.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])),
  );
  const mac = async (key: CryptoKey, name: string, value: string) =>
    new Uint8Array(await crypto.subtle.sign("HMAC", key, utf8.encode(`${name}=${value}`)));
  return {
    async sign(value, name = "") {
      return `${value}.${Buffer.from(await mac(keys[0]!, name, value)).toString("base64url")}`;
    },
    async verify(signed, name = "") {
      if (typeof signed !== "string") return undefined;
      const dot = signed.length - SIGNATURE_CHARS - 1;
      if (dot < 0 || signed[dot] !== ".") return undefined;
      const given = Buffer.from(signed.slice(dot + 1), "base64url");
      // Node's decoder also takes standard base64 and skips stray characters: only the canonical spelling counts.
      if (given.length !== 32 || given.toString("base64url") !== signed.slice(dot + 1)) return undefined;
      const value = signed.slice(0, dot);
      for (const key of keys) {
        if (timingSafeEqual(await mac(key, name, value), given)) return value;
      }
      return undefined;
    },
  };
}
