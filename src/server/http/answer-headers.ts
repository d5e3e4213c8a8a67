// answer-headers.ts: a page's answer headers: the framework's own, then those the app's loader or action set
// (Cache-Control, cookies), on the document, the page data and the redirect alike.

/**
 * Without app headers the framework's record goes out as it is (no Headers object per response). A failed
 * page (an outcome, an error) is never cached, whatever the loader asked for before it failed.
 */
export function withAppHeaders(
  base: Record<string, string>,
  app: ReadonlyArray<readonly [string, string]>,
  failed: boolean,
): Record<string, string> | Headers {
  if (app.length === 0) return base;
  const headers = new Headers(base);
  for (const [name, value] of app) {
    if (name === "set-cookie") headers.append(name, value);
    else headers.set(name, value);
  }
  if (failed) headers.set("cache-control", "no-store");
  return headers;
}
