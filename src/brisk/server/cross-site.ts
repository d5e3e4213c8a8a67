// cross-site.ts: tells a browser request sent by another site's page from one sent by our own pages.

/**
 * True when a browser says the request comes from another site: `Sec-Fetch-Site` (every current browser
 * sends it) is `cross-site` or `same-site` (a sibling subdomain is another origin too), or, from a browser
 * too old for it, the `Origin` (else the `Referer`) names another host than the request's `Host`.
 *
 * The host is compared, not the scheme: behind a TLS proxy the page is `https://` while this server sees
 * plain HTTP. The proxy must pass the visitor's `Host` on. A request with none of these headers is not from
 * a browser page, and a client that can forge them can as well post with no browser at all.
 */
export function isCrossSite(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) return site === "cross-site" || site === "same-site";
  const source = request.headers.get("origin") ?? request.headers.get("referer");
  if (source === null) return false;
  // A request made in process (app.handle) has no Host header; its URL has the host.
  const host = request.headers.get("host")?.toLowerCase() ?? URL.parse(request.url)?.host;
  // `Origin: null` (a sandboxed frame, a file) does not parse, so it is cross-site too.
  const from = URL.parse(source)?.host;
  return from === undefined || from !== host;
}
