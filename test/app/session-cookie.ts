// session-cookie.ts: the examples' session cookie as their tests send it back. The app's sessions are Secure, so
// the cookie carries the `__Host-` prefix: one name here, for every test that signs in.
export const SESSION_COOKIE = "__Host-session";

/** The `name=value` of the session cookie a response sets, for a later request's `cookie` header. */
export function sessionCookieOf(res: Response): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (set === undefined) throw new Error(`the response sets no ${SESSION_COOKIE} cookie`);
  return set.split(";")[0]!;
}

/** The cookie with a character more at the start of its value: its signature no longer holds. */
export const tampered = (cookie: string) => cookie.replace(`${SESSION_COOKIE}=`, `${SESSION_COOKIE}=x`);
