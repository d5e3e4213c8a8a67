// same-origin.ts: decides whether a POST comes from this site's own pages or must be refused (403) as cross-site.
//
// crossSiteRefusal(request, { trustProxy }) is undefined when the request may go on, else the reason it
// is refused, one line of plain text for the log and the 403 body. A request is refused when
//   - Sec-Fetch-Site is cross-site;
//   - Origin is present and is not this site's origin (`Origin: null` included: a sandboxed frame, a
//     file: page or a cross-site redirect chain, none of which is this site);
//   - Origin is absent, Referer is present and is not on this site's origin.
// With neither header (curl, server-to-server calls) the request goes on: browsers send Origin on
// every POST, so a page elsewhere cannot get one through without it, and those headers are what
// tells a browser's request apart. It reads headers only, so it runs before the body is read.
//
// This site's origin is the request URL's (scheme and Host). Behind a reverse proxy that terminates
// TLS or rewrites Host, the first X-Forwarded-Proto and X-Forwarded-Host entries stand for them, but
// only with trustProxy (TRUST_PROXY): otherwise any client could claim to be any origin.

export interface SameOriginOptions {
  /** Read X-Forwarded-Proto and X-Forwarded-Host, set by a reverse proxy this server trusts. */
  readonly trustProxy: boolean;
}

/** `url` is the request's URL when the caller has parsed it already. */
export function crossSiteRefusal(request: Request, options: SameOriginOptions, url?: URL): string | undefined {
  const headers = request.headers;
  if (headers.get("sec-fetch-site")?.trim().toLowerCase() === "cross-site") return "Sec-Fetch-Site is cross-site";
  const site = siteOrigin(request, options, url);
  const origin = headers.get("origin");
  if (origin !== null) {
    // A serialized origin parses to itself, and browsers send Origin serialized: this site's own is taken as
    // it is, without a parse.
    if (origin === site) return undefined;
    if (origin.trim() === "null") return "Origin is null";
    const from = originOf(origin);
    if (from === undefined) return "Origin is not a URL";
    return from === site ? undefined : `Origin ${from} is not ${site}`;
  }
  const referer = headers.get("referer");
  if (referer === null) return undefined;
  const from = originOf(referer);
  if (from === undefined) return "Referer is not a URL";
  return from === site ? undefined : `Referer is on ${from}, not ${site}`;
}

/** The origin this site is served on, as a browser would write it in Origin. */
export function siteOrigin(request: Request, options: SameOriginOptions, url = new URL(request.url)): string {
  if (!options.trustProxy) return url.origin;
  const proto = firstEntry(request.headers.get("x-forwarded-proto"))?.toLowerCase();
  const host = firstEntry(request.headers.get("x-forwarded-host"));
  const scheme = proto === "http" || proto === "https" ? proto : url.protocol.slice(0, -1);
  // A forwarded host that is not a plain host[:port] is the proxy's mistake: the request URL's stands,
  // which refuses a browser's Origin rather than accepting one it should not.
  const forwarded = host && !/[\s/?#@\\]/.test(host) ? originOf(`${scheme}://${host}`) : undefined;
  return forwarded ?? originOf(`${scheme}://${url.host}`) ?? url.origin;
}

/** A header's first comma-separated entry: the one the proxy nearest the visitor wrote. */
function firstEntry(value: string | null): string | undefined {
  const first = value?.split(",", 1)[0]?.trim();
  return first || undefined;
}

/** The serialized origin of an absolute http(s) URL (lower-case host, default port dropped), else undefined. */
function originOf(value: string): string | undefined {
  const url = URL.parse(value.trim());
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) return undefined;
  return url.origin;
}
