// session.ts: the signed session cookie the bench sends to `/session/items`: signed with the COOKIE_SECRET every
// bench server gets, as Brisk's cookie signer signs (src/server/cookies/cookie-signer.ts), so Brisk's loader and
// the reference's check by hand both accept it.
import { createCookieSigner } from "../../src/server/cookies/cookie-signer.ts";
import { SESSION_COOKIE } from "../app/pages/session.server.ts";

/** At least 32 bytes, as COOKIE_SECRET must be. */
export const BENCH_COOKIE_SECRET = "bench-only-cookie-secret-0123456789abcdef";
export const SESSION_USER = "ada";

/** The `Cookie` header of a signed-in visitor. */
export async function sessionCookie(): Promise<string> {
  const signer = await createCookieSigner([BENCH_COOKIE_SECRET]);
  return `${SESSION_COOKIE}=${await signer.sign(SESSION_USER, SESSION_COOKIE)}`;
}
