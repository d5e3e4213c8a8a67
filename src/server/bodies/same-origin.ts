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
// crossHostRefusal is the tunnel's rule: Sec-Fetch-Site same-site is refused too, and of Origin (else
// Referer) only the host and port must be this site's.
//
// This site's origin is the request URL's (scheme and Host). Behind a reverse proxy that terminates
// TLS or rewrites Host, the first X-Forwarded-Proto and X-Forwarded-Host entries stand for them, but
// only with trustProxy (TRUST_PROXY): otherwise any client could claim to be any origin.

export interface SameOriginOptions {
  /** Read X-Forwarded-Proto and X-Forwarded-Host, set by a reverse proxy this server trusts. */
  readonly trustProxy: boolean;
}

/** What a browser's Sec-Fetch-Site may say, and which part of its Origin (else Referer) must be this site's. */
interface Rule {
  readonly refusedSites: readonly string[];
  readonly part: "origin" | "host";
}

const SAME_ORIGIN: Rule = { refusedSites: ["cross-site"], part: "origin" };
const SAME_HOST: Rule = { refusedSites: ["cross-site", "same-site"], part: "host" };

/** The rule of form posts, page data and the API: this site's whole origin. `url` is the request's when parsed already. */
export function crossSiteRefusal(request: Request, options: SameOriginOptions, url?: URL): string | undefined {
  return refusal(request, siteOrigin(request, options, url), SAME_ORIGIN);
}

/**
 * The tunnel's rule: no other site, not even a sibling subdomain (`Sec-Fetch-Site: same-site`), and this
 * site's host and port. The scheme is not compared: behind a TLS proxy the page is https:// and this server
 * sees HTTP, and a site without forms would otherwise lose every browser report there without a sign (forms
 * fail visibly and need TRUST_PROXY). Another scheme on this very host is this site all the same.
 */
export function crossHostRefusal(request: Request, options: SameOriginOptions): string | undefined {
  return refusal(request, siteOrigin(request, options), SAME_HOST);
}

function refusal(request: Request, site: string, rule: Rule): string | undefined {
  const headers = request.headers;
  const fetchSite = headers.get("sec-fetch-site")?.trim().toLowerCase();
  if (fetchSite !== undefined && rule.refusedSites.includes(fetchSite)) return `Sec-Fetch-Site is ${fetchSite}`;
  const origin = headers.get("origin");
  // A serialized origin parses to itself, and browsers send Origin serialized: this site's own is taken as
  // it is, without a parse.
  if (origin === site) return undefined;
  if (origin?.trim() === "null") return "Origin is null";
  const [header, value] =
    origin !== null ? (["Origin", origin] as const) : (["Referer", headers.get("referer")] as const);
  if (value === null) return undefined;
  const from = partOf(value, rule);
  if (from === undefined) return `${header} is not a URL`;
  const own = partOf(site, rule);
  if (from === own) return undefined;
  return header === "Origin" ? `Origin ${from} is not ${own}` : `Referer is on ${from}, not ${own}`;
}

/** The origin this site is served on, as a browser would write it in Origin. */
export function siteOrigin(request: Request, options: SameOriginOptions, url = new URL(request.url)): string {
  if (!options.trustProxy) return url.origin;
  const proto = firstEntry(request.headers.get("x-forwarded-proto"))?.toLowerCase();
  const host = firstEntry(request.headers.get("x-forwarded-host"));
  const scheme = proto === "http" || proto === "https" ? proto : url.protocol.slice(0, -1);
  // A forwarded host that is not a plain host[:port] is the proxy's mistake: the request URL's stands,
  // which refuses a browser's Origin rather than accepting one it should not.
  const forwarded = host && !/[\s/?#@\\]/.test(host) ? partOf(`${scheme}://${host}`, SAME_ORIGIN) : undefined;
  return forwarded ?? partOf(`${scheme}://${url.host}`, SAME_ORIGIN) ?? url.origin;
}

/** A header's first comma-separated entry: the one the proxy nearest the visitor wrote. */
function firstEntry(value: string | null): string | undefined {
  const first = value?.split(",", 1)[0]?.trim();
  return first || undefined;
}

/**
 * The rule's part of an absolute http(s) URL, else undefined: its serialized origin, or its host[:port]
 * (lower-case, the scheme's default port dropped, as browsers write them in Origin).
 */
function partOf(value: string, { part }: Rule): string | undefined {
  const url = URL.parse(value.trim());
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) return undefined;
  return url[part];
}
