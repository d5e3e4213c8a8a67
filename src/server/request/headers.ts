// headers.ts: how headers get onto a response: the app's on a page's response, and the framework's own on
// whatever a handler returned.
import type { Context } from "elysia";

/**
 * A page's response headers: the framework's own, then those the app's loader or action set (Cache-Control,
 * cookies), on the document, the page data and the redirect alike. Without app headers the framework's
 * record goes out as it is (no Headers object per response). A failed page (an outcome, an error) is never
 * cached, whatever the loader asked for before it failed.
 */
export function withAppHeaders(
  base: Record<string, string>,
  app: ReadonlyArray<readonly [string, string]>,
  failed: boolean,
): Record<string, string> | Headers {
  if (app.length === 0) return base;
  const headers = addAppHeaders(new Headers(base), app);
  if (failed) headers.set("cache-control", "no-store");
  return headers;
}

/** The headers a loader or an action set, onto `headers`: one Set-Cookie per cookie, the others replacing. */
export function addAppHeaders(headers: Headers, app: ReadonlyArray<readonly [string, string]>): Headers {
  for (const [name, value] of app) {
    if (name === "set-cookie") headers.append(name, value);
    else headers.set(name, value);
  }
  return headers;
}

/**
 * Adds headers to whatever a handler returned, from a global Elysia hook. On a Response the headers go onto
 * the Response itself: headers left in Elysia's `set` make it copy the Response, and a copied streamed page
 * loses Bun's direct stream and pays for every chunk again.
 *
 * A header the handler already chose is kept: a page, a prerendered page and the error response set X-Request-Id
 * themselves, while making their headers, and the request log's hook fills it in on every other response.
 */
export function addHeaders(
  { responseValue, set }: { responseValue: unknown; set: Pick<Context["set"], "headers"> },
  headers: Iterable<readonly [string, string]>,
): void {
  const target = responseValue instanceof Response ? responseValue.headers : undefined;
  for (const [name, value] of headers) {
    if (!target) set.headers[name] ??= value;
    else if (!target.has(name)) target.set(name, value);
  }
}

/**
 * The name an app's `setHeader(name, value)` sets, lower-cased: any header but Set-Cookie, which has its own
 * API (`ctx.cookies`) that keeps one Set-Cookie per cookie and the defaults.
 */
export function appHeaderName(name: string): string {
  const key = name.toLowerCase();
  if (key === "set-cookie") throw new TypeError("setHeader: use ctx.cookies.set() for cookies");
  return key;
}
