// cookie-session.ts: sessions kept whole in their cookie, `getSession(cookies, options)` and `requireUser`, for
// loaders and actions (`ctx.cookies`) and API routes (`requestCookies(request)`) alike: JSON signed for the
// session purpose only, so no `setSigned` value reads as a session and a session never reads as `getSigned`.
// Stateless: signing out deletes the cookie, but a copy taken before keeps working until its maxAge; an app
// that must end sessions on the server keeps them in its store (createSessionStorage in brisk/server).
import type { Cookies } from "../../runtime/cookies.ts";
import { requestSession, signedInUser, type Session, type SessionOptions, type SessionValues } from "./session.ts";
import { sessionCookie, stateFromCookie, stateToCookie } from "./session-cookie.ts";

/** What a cookie-kept session is keyed by in a request, beside the stores' storages. */
const COOKIE_KEPT = {};

/**
 * This request's session in the cookie `name` (`session`, sent as `__Host-session` when Secure), read and
 * verified once per request: later calls for the same cookie get the same session, written with the options of
 * the first.
 */
export function getSession<Values extends SessionValues = SessionValues, Flash extends SessionValues = Values>(
  cookies: Cookies,
  options: SessionOptions = {},
): Promise<Session<Values, Flash>> {
  const { name = "session", maxAge, ...cookieOptions } = options;
  return requestSession(cookies, { name, kind: COOKIE_KEPT, maxAge }, (access) => {
    const cookie = sessionCookie(cookies, access, name, cookieOptions);
    return {
      read: async () => stateFromCookie(await cookie.read("brisk-session/1")),
      encode: (state) => stateToCookie(cookie.name, state),
      write: (value, expires) => cookie.write(value, "brisk-session/1", expires),
      end: async () => cookie.delete(),
    };
  });
}

/**
 * The signed-in visitor: the session's `user`, which signing in sets. Without one it throws `unauthorized()`,
 * the 401 page in a loader or an action (the nearest route's fallback) and 401 JSON in an API route.
 */
export async function requireUser<User>(cookies: Cookies, options?: SessionOptions): Promise<NonNullable<User>> {
  return signedInUser((await getSession<{ user: User }>(cookies, options)).get("user"));
}
