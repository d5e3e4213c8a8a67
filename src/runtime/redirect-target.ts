// redirect-target.ts: which redirect targets are safe as a browser reads them (a path on this site, or another
// site's http(s) URL when the call says it means one), and `returnTo`, a return path taken from untrusted input.
import type { SafePath } from "./route-paths.ts";

/**
 * What a browser drops, or reads as a slash, before it knows which host a URL names (the URL standard trims C0
 * controls and spaces, removes tabs and newlines, takes `\` for `/`), with DEL and C1 controls: no target an
 * app builds holds one, and `"\u0001//evil.example"` reads here as a path but in a browser as another host.
 */
const MISREAD = /[\u0000-\u001f\u007f-\u009f\\]/;
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const WEB_URL = /^https?:\/\//i;

const FIX =
  "Redirect to a path on this site; pass a return path from a form or the query through returnTo(next, fallback), " +
  "and write redirect(url, { external: true }) for another site's http(s) URL on purpose.";

/** Why `redirect()` refuses a target, or undefined when it may send it. */
function refusalOf(url: string, external: boolean): string | undefined {
  if (url === "") return "it is empty";
  if (MISREAD.test(url)) return "it holds a control character or a backslash, which a browser may read as another host";
  if (/^\s|\s$/.test(url)) return "it starts or ends with whitespace, which a browser may drop";
  if (url.startsWith("//")) return "it is protocol-relative (//host), so another site";
  const scheme = SCHEME.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) return undefined;
  if (scheme !== "http" && scheme !== "https") return `a ${scheme}: URL is never a redirect target`;
  if (!external) return "it is an absolute URL, which may be another site";
  if (!WEB_URL.test(url) || !URL.canParse(url)) return "it is not a whole http(s) URL (https://host/path)";
  return undefined;
}

/**
 * The `Location` for a target `redirect()` takes, or a developer error naming the target and the fix. A header
 * holds bytes only: a path's non-ASCII characters are percent-encoded as UTF-8, as the browser would, and an
 * external URL is written as the URL parser writes it (its host in punycode).
 */
export function redirectLocation(url: string, external: boolean): string {
  const refusal = refusalOf(url, external);
  if (refusal !== undefined)
    throw new Error(`redirect() refused ${JSON.stringify(url.slice(0, 100))}: ${refusal}. ${FIX}`);
  if (SCHEME.test(url)) return new URL(url).href;
  return url.toWellFormed().replace(/[\u0080-\uffff]+/g, encodeURIComponent);
}

/** Longer is no path the app made, and would make a `Location` header that browsers refuse. */
const MAX_RETURN_PATH = 2048;

/** Percent-decoded once, or undefined when malformed (`/100%`): no path the app made is. */
function decodedOnce(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/**
 * A path on this site: `/` first and nothing `redirect()` refuses (`//host`, a backslash, a control character);
 * the same once percent-decoded, since a proxy or a server that decodes the path would read `/%2F/host` as
 * `//host` and `/%09/host` as `/\t/host`.
 */
function isOwnPath(value: string): boolean {
  if (value.length > MAX_RETURN_PATH) return false;
  const decoded = decodedOnce(value);
  return (
    decoded !== undefined &&
    [value, decoded].every((path) => path.startsWith("/") && refusalOf(path, false) === undefined)
  );
}

/**
 * `next` when it is a path on this site (`/x`, `/x?y#z`), else `fallback`. For a return path from a form, the
 * query or a cookie, where anything may come (null, a file, another site's URL): `redirect(returnTo(next,
 * "/account"))` never leaves the site and never fails. A `fallback` that is not such a path is a developer
 * error, thrown whatever `next` is, so a test of the happy path finds it.
 */
export function returnTo(next: unknown, fallback: string): SafePath {
  if (!isOwnPath(fallback))
    throw new Error(
      `returnTo(): the fallback ${JSON.stringify(fallback.slice(0, 100))} is not a path on this site ("/…")`,
    );
  return (typeof next === "string" && isOwnPath(next) ? next : fallback) as SafePath;
}
