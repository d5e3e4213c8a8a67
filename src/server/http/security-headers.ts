// security-headers.ts: the security headers of every response, chosen in this one place.
import type { Config } from "../config/config.ts";

/** Where browsers send CSP violation reports; the monitoring plugin forwards them to Sentry. */
export const CSP_REPORT_PATH = "/monitoring/csp";

export interface SecurityHeaders {
  /** On every response: assets, page data, the tunnel, health (the request pipeline adds those a response lacks). */
  readonly common: Readonly<Record<string, string>>;
  /** A fresh nonce for one HTML response. */
  nonce(): string;
  /** The HTML headers for that nonce, the common ones included: a new object the caller may fill. */
  html(nonce: string): Record<string, string>;
  /** The Content-Security-Policy for that nonce alone (what a prerendered page's response changes). */
  csp(nonce: string): string;
  /**
   * The headers of an HTML response the framework did not render (a route without a page's own Response): a
   * document's, with a CSP that lets no script run, since no nonce vouches for any.
   */
  readonly scriptlessHtml: Readonly<Record<string, string>>;
}

const COMMON = {
  "x-content-type-options": "nosniff",
  // Another site may not embed our pages, scripts or responses with <script>, <img> or no-cors fetch.
  "cross-origin-resource-policy": "same-origin",
} as const;

/**
 * Headers that govern a document: browsers read them on HTML only, so a script, a stylesheet or the
 * tunnel's response would carry them for nothing. (A module's own referrer policy would be this one: the
 * browser default.)
 */
const DOCUMENT = {
  "referrer-policy": "strict-origin-when-cross-origin",
  // Features this app never asks for: a script injected into it cannot ask either.
  "permissions-policy":
    "accelerometer=(), autoplay=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), midi=(), payment=(), usb=(), xr-spatial-tracking=()",
  "cross-origin-opener-policy": "same-origin",
} as const;

export interface SecurityOptions {
  /** Who may frame the pages (CSP frame-ancestors sources, e.g. `'self'`); no one when omitted. */
  readonly frameAncestors?: readonly string[];
}

/**
 * One CSP source each: a keyword in quotes, a scheme, or a host with its scheme, port and path as CSP spells
 * them. Anything else (a space, a `;`) would end the directive and let the value write a policy of its own.
 */
const FRAME_SOURCE =
  /^(?:'(?:self|none)'|[a-z][a-z0-9+.-]*:|(?:[a-z][a-z0-9+.-]*:\/\/)?(?:\*\.)?[a-z0-9.-]+(?::(?:\d+|\*))?(?:\/[^\s;,']*)?|\*)$/i;

function frameAncestorsDirective(sources: readonly string[]): string {
  for (const source of sources) {
    if (!FRAME_SOURCE.test(source))
      throw new Error(
        `frameAncestors: ${JSON.stringify(source)} is not a CSP source (e.g. 'self', https://partner.example)`,
      );
  }
  if (sources.includes("'none'") && sources.length > 1)
    throw new Error("frameAncestors: 'none' cannot stand beside other sources");
  return `frame-ancestors ${sources.length ? sources.join(" ") : "'none'"}`;
}

export function createSecurityHeaders(
  config: Pick<Config, "sentryDsn" | "hstsMaxAge">,
  { frameAncestors = [] }: SecurityOptions = {},
): SecurityHeaders {
  const reporting = config.sentryDsn !== undefined;
  // HSTS belongs to whoever terminates TLS; sent here only when asked for (the proxy may not set it).
  const common =
    config.hstsMaxAge === undefined
      ? COMMON
      : { ...COMMON, "strict-transport-security": `max-age=${config.hstsMaxAge}` };
  // Everything but the nonce is decided once.
  const tail = [
    "default-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    // No one may frame a page (clickjacking) unless the app names who may.
    frameAncestorsDirective(frameAncestors),
    ...(reporting ? [`report-uri ${CSP_REPORT_PATH}`, "report-to csp"] : []),
  ].join("; ");
  // 'strict-dynamic': scripts our nonce'd scripts load (route chunks, Sentry) are trusted; nothing else runs.
  // style-src: the stylesheet files and the small ones inlined into the page with the same nonce.
  const csp = (nonce: string) =>
    `script-src 'nonce-${nonce}' 'strict-dynamic'; style-src 'self' 'nonce-${nonce}'; ${tail}`;
  const fixed = { ...common, ...DOCUMENT, ...(reporting ? { "reporting-endpoints": `csp="${CSP_REPORT_PATH}"` } : {}) };
  return {
    common,
    nonce: () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64"),
    html: (nonce) => ({ ...fixed, "content-security-policy": csp(nonce) }),
    csp,
    scriptlessHtml: { ...fixed, "content-security-policy": `script-src 'none'; style-src 'self'; ${tail}` },
  };
}
