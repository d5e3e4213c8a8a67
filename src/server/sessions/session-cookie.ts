// session-cookie.ts: the cookie a session travels in, for both kinds of session. Its name on the wire is
// `__Host-<name>` whenever the cookie is Secure with Path=/ and no Domain: a browser then takes it only from this
// host, so a sibling subdomain cannot plant a session or shadow one with a same-name cookie sent first. A cookie
// under the name it had before (plain `session`) is read while the new one is absent, so a sign-in survives the
// upgrade, and moved by the next write. A session kept whole in its cookie is encoded here too, within the 4 KB
// a browser keeps.
import type { CookieOptions, Cookies } from "../../runtime/cookies.ts";
import type { SessionAccess } from "../cookies/cookies.ts";
import { parseSessionState, secondsUntil, type SessionState } from "./session.ts";

/**
 * What a signature is for, part of what it covers: a session's data in its cookie, the id of one kept in a store,
 * or the flash values of a stored kind of session that holds nothing else yet.
 */
export type SignaturePurpose = "brisk-session/1" | "brisk-session-id/1" | "brisk-session-flash/1";

export interface SessionCookie {
  /** The name on the wire: what a browser sends and a size is counted with. */
  readonly name: string;
  /**
   * The value signed for `purpose` under the wire name, or under the old name when the request has no cookie
   * of the new one: undefined when absent, forged or signed for another purpose.
   */
  read(purpose: SignaturePurpose): Promise<string | undefined>;
  /** Whether the request's session came under the old name: a write that keeps it must move it. */
  readonly moving: boolean;
  /** Sets the cookie until `expires` (ms), and expires one under the old name that the request carried. */
  write(value: string, purpose: SignaturePurpose, expires: number): Promise<void>;
  /** Expires the cookie, under both names. */
  delete(): void;
}

/** The prefixes a browser enforces: a name that has one already is the app's choice. */
const PREFIXED = /^__(host|secure)-/i;

/** `__Host-<name>` when the browser would take it so (Secure, Path=/, no Domain); else `name`. */
function wireName(name: string, options: Omit<CookieOptions, "maxAge" | "expires">, secureByDefault: boolean): string {
  const host = (options.secure ?? secureByDefault) && (options.path ?? "/") === "/" && options.domain === undefined;
  return host && !PREFIXED.test(name) ? `__Host-${name}` : name;
}

/** The session cookie `name` (as the app names it) of a request's jar, written with `options`. */
export function sessionCookie(
  cookies: Cookies,
  access: SessionAccess,
  name: string,
  options: Omit<CookieOptions, "maxAge" | "expires">,
): SessionCookie {
  const wire = wireName(name, options, access.secure);
  // Only while the request still carries it: a cookie under the old name that nothing expires lingers.
  let old = wire !== name && cookies.get(name) !== undefined ? name : undefined;
  const fromOld = old !== undefined && cookies.get(wire) === undefined;
  const dropOld = () => {
    if (old !== undefined) cookies.delete(old, options);
    old = undefined;
  };
  return {
    name: wire,
    get moving() {
      return fromOld && old !== undefined;
    },
    read: (purpose) => access.getSigned(fromOld ? name : wire, purpose),
    async write(value, purpose, expires) {
      await access.setSigned(wire, value, purpose, { ...options, maxAge: secondsUntil(expires) });
      dropOld();
    },
    delete() {
      cookies.delete(wire, options);
      dropOld();
    },
  };
}

/**
 * Browsers keep a cookie of at most 4096 bytes, name and value together (RFC 6265 asks for no more); a longer
 * one is dropped without a word, which would sign the visitor out. Writing one is refused instead.
 */
const MAX_COOKIE_BYTES = 4096;

/** base64url of an HMAC-SHA256 and its dot, which signing adds to the value. */
const SIGNATURE_BYTES = 44;

/**
 * A session write refused because the cookie would pass the `limit` browsers keep (`bytes` it would take); the
 * session keeps what it had. What to do: check what a visitor types before it goes in (a name's length) and
 * answer the form's 422, or catch this around the write and answer 422 the same way, never a 500; keep bigger
 * data in the database with its id in the session, or the whole session in the app's store
 * (createSessionStorage from brisk/server, whose cookie holds only an id once the session holds a value).
 */
export class SessionTooLargeError extends Error {
  override name = "SessionTooLargeError";
  readonly limit = MAX_COOKIE_BYTES;

  constructor(
    readonly cookie: string,
    readonly bytes: number,
  ) {
    super(
      `session: the ${cookie} cookie would be ${bytes} bytes, over the ${MAX_COOKIE_BYTES} browsers keep; store an id in the session and the data elsewhere`,
    );
  }
}

/** A session's state as the value of the cookie `name` (its wire name); throws SessionTooLargeError past 4 KB. */
export function stateToCookie(name: string, state: SessionState): string {
  const value = new TextEncoder().encode(JSON.stringify(state)).toBase64({ alphabet: "base64url", omitPadding: true });
  const bytes = new TextEncoder().encode(`${name}=${value}`).length + SIGNATURE_BYTES;
  if (bytes > MAX_COOKIE_BYTES) throw new SessionTooLargeError(name, bytes);
  return value;
}

/** The state a cookie's verified value holds, or undefined for anything else. */
export function stateFromCookie(value: string | undefined): SessionState | undefined {
  if (!value) return undefined;
  try {
    return parseSessionState(new TextDecoder().decode(Uint8Array.fromBase64(value, { alphabet: "base64url" })));
  } catch {
    return undefined;
  }
}
