// session-jar.ts: what sessions need of a request's cookie jar beyond the public `Cookies`: values signed for
// a purpose, which never verify as `getSigned` values nor the other way round, the request's method, and whether
// cookies are Secure unless a call says otherwise (a session cookie's name depends on it).
// The server's createCookies attaches it to every jar it makes; apps never see it.
import type { CookieOptions, Cookies } from "./cookies.ts";

/**
 * What a signature is for, part of what it covers: a session's data in its cookie, the id of one kept in a store,
 * or the flash values of a stored kind of session that holds nothing else yet.
 */
export type SignaturePurpose = "brisk-session/1" | "brisk-session-id/1" | "brisk-session-flash/1";

export interface SessionJar {
  /** A HEAD shows no page, so it reads no flash value. */
  readonly method: string;
  readonly secure: boolean;
  getSigned(name: string, purpose: SignaturePurpose): Promise<string | undefined>;
  setSigned(name: string, value: string, purpose: SignaturePurpose, options?: CookieOptions): Promise<void>;
}

const jars = new WeakMap<Cookies, SessionJar>();

export function attachSessionJar(cookies: Cookies, jar: SessionJar): void {
  jars.set(cookies, jar);
}

export function sessionJarOf(cookies: Cookies): SessionJar {
  const jar = jars.get(cookies);
  if (!jar) throw new TypeError("session: these cookies are not a request's (a loader's or an action's ctx.cookies, or requestCookies(request))");
  return jar;
}
