// request-cookies.ts: the cookies of a request to an API route: the same jar as loaders and actions get,
// signed and verified with the same secrets. An API handler is the app's own Elysia code, so it reaches the
// jar from its request (`requestCookies(request)`), and the API plugin puts what it set on the answer.
import { createCookies, type Cookies, type CookieSettings } from "./cookies.ts";

const settingsOf = new WeakMap<Request, CookieSettings>();
const jars = new WeakMap<Request, Cookies>();

/** The API plugin hands each of its requests the app's cookie settings before the handler runs. */
export function offerCookies(request: Request, settings: CookieSettings): void {
  settingsOf.set(request, settings);
}

/**
 * This request's cookies: `get`/`getSigned` read the visitor's, `set`/`setSigned`/`delete` reach the answer
 * (HttpOnly, SameSite=Lax, Path=/ and, in production, Secure unless the call says otherwise).
 */
export function requestCookies(request: Request): Cookies {
  let jar = jars.get(request);
  if (!jar) {
    const settings = settingsOf.get(request);
    if (!settings) throw new Error("requestCookies: the request is not one Brisk serves to an API route (its handler's own `request`)");
    jar = createCookies(request.headers.get("cookie"), settings, request.method);
    jars.set(request, jar);
  }
  return jar;
}

/** What the handler set or deleted, one Set-Cookie value each; none when it never asked for the jar. */
export function cookiesSetBy(request: Request): string[] {
  return jars.get(request)?.setCookieHeaders() ?? [];
}
