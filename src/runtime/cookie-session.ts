// cookie-session.ts: sessions kept whole in their cookie, `getSession(cookies, options)` and `requireUser`, for
// loaders and actions (`ctx.cookies`) and API routes (`requestCookies(request)`) alike: JSON signed for the
// session purpose only, so no `setSigned` value reads as a session and a session never reads as `getSigned`.
// Stateless: signing out deletes the cookie, but a copy taken before keeps working until its maxAge; an app
// that must end sessions on the server keeps them in its store (createSessionStorage in brisk/server).
import type { Cookies } from "./cookies.ts";
import { parseSessionState, requestSession, secondsUntil, signedInUser, type Session, type SessionOptions, type SessionValues } from "./session.ts";

/**
 * Browsers keep a cookie of at most 4096 bytes, name and value together (RFC 6265 asks for no more); a longer
 * one is dropped without a word, which would sign the visitor out. Writing one is refused instead.
 */
const MAX_COOKIE_BYTES = 4096;

/**
 * A session write refused because the cookie would pass the `limit` browsers keep (`bytes` it would take); the
 * session keeps what it had. What to do: check what a visitor types before it goes in (a name's length) and
 * answer the form's 422, or catch this around the write and answer 422 the same way, never a 500; keep bigger
 * data in the database with its id in the session, or the whole session in the app's store
 * (createSessionStorage from brisk/server, whose cookie holds only an id).
 */
export class SessionTooLargeError extends Error {
  override name = "SessionTooLargeError";
  readonly limit = MAX_COOKIE_BYTES;

  constructor(
    readonly cookie: string,
    readonly bytes: number,
  ) {
    super(`session: the ${cookie} cookie would be ${bytes} bytes, over the ${MAX_COOKIE_BYTES} browsers keep; store an id in the session and the data elsewhere`);
  }
}

/** base64url of an HMAC-SHA256 and its dot, which signing adds to the value. */
const SIGNATURE_BYTES = 44;

/** What a cookie-kept session is keyed by in a request, beside the stores' storages. */
const COOKIE_KEPT = {};

/**
 * This request's session in the cookie `name` (`session`), read and verified once per request: later calls for
 * the same cookie get the same session, written with the options of the first.
 */
export function getSession<Values extends SessionValues = SessionValues, Flash extends SessionValues = Values>(
  cookies: Cookies,
  options: SessionOptions = {},
): Promise<Session<Values, Flash>> {
  const { name = "session", maxAge, ...cookieOptions } = options;
  return requestSession(cookies, { name, kind: COOKIE_KEPT, maxAge }, (jar) => ({
    read: async () => parseSessionState(fromBase64url(await jar.getSigned(name, "brisk-session/1"))),
    encode(state) {
      const value = toBase64url(JSON.stringify(state));
      const bytes = new TextEncoder().encode(`${name}=${value}`).length + SIGNATURE_BYTES;
      if (bytes > MAX_COOKIE_BYTES) throw new SessionTooLargeError(name, bytes);
      return value;
    },
    write: (value, _start, expires) => jar.setSigned(name, value, "brisk-session/1", { ...cookieOptions, maxAge: secondsUntil(expires) }),
    end: async () => cookies.delete(name, cookieOptions),
  }));
}

/**
 * The signed-in visitor: the session's `user`, which signing in sets. Without one it throws `unauthorized()`,
 * the 401 page in a loader or an action (the nearest route's fallback) and 401 JSON in an API route.
 */
export async function requireUser<User>(cookies: Cookies, options?: SessionOptions): Promise<NonNullable<User>> {
  return signedInUser((await getSession<{ user: User }>(cookies, options)).get("user"));
}

const toBase64url = (text: string) => new TextEncoder().encode(text).toBase64({ alphabet: "base64url", omitPadding: true });

function fromBase64url(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return new TextDecoder().decode(Uint8Array.fromBase64(value, { alphabet: "base64url" }));
  } catch {
    return undefined;
  }
}
