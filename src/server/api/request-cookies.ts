// request-cookies.ts: the cookies of a request to an API route: the request context's one jar, which loaders and
// actions get as `ctx.cookies`, signed and verified with the same secrets. An API handler is the app's own
// Elysia code, so it reaches the jar from its request (`requestCookies(request)`), and the API plugin puts what
// it set on the response.
import type { Cookies } from "../../runtime/cookies.ts";
import { contextOf, cookiesOf } from "../request/context.ts";

/**
 * This request's cookies: `get`/`getSigned` read the visitor's, `set`/`setSigned`/`delete` reach the response
 * (HttpOnly, SameSite=Lax, Path=/ and, in production, Secure unless the call says otherwise).
 */
export function requestCookies(request: Request): Cookies {
  const jar = cookiesOf(contextOf(request));
  if (!jar)
    throw new Error(
      "requestCookies: the request is not one Brisk serves to an API route (its handler's own `request`)",
    );
  return jar;
}

/** What the handler set or deleted, one Set-Cookie value each; none when it never asked for the jar. */
export function cookiesSetBy(request: Request): string[] {
  return contextOf(request).jar?.setCookieHeaders() ?? [];
}
