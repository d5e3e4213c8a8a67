// headers.ts: how headers get onto a response: the app's on a page's response, and the framework's own on
// whatever the routing answered.

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
 * Puts `headers` on a response that has none of those names: a page sets X-Request-Id itself, while making its
 * headers, and the request pipeline fills it in on every other response.
 */
export function addMissingHeaders(response: Response, headers: Iterable<readonly [string, string]>): void {
  for (const [name, value] of headers) if (!response.headers.has(name)) response.headers.set(name, value);
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
