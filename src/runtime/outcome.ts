// outcome.ts: the non-error ways a page can end (redirect, not found, forbidden, unauthorized, a bad request).
// Helpers throw an Outcome; the server turns it into a status and the client into a fallback.
import { redirectLocation } from "./redirect-target.ts";
import type { CheckedHref } from "./route-paths.ts";

/** `bad-request` is a search that the route's schema refuses (search-schema.ts): Brisk's own, no helper throws it. */
export type OutcomeKind = "redirect" | "not-found" | "forbidden" | "unauthorized" | "bad-request";

const STATUS: Record<Exclude<OutcomeKind, "redirect">, number> = {
  "not-found": 404,
  forbidden: 403,
  unauthorized: 401,
  "bad-request": 400,
};

/** The marker every outcome's message starts with, so Sentry's ignoreErrors can drop them. */
export const OUTCOME_MARKER = "BRISK_OUTCOME";

/** The statuses a redirect can have: 303 after a form post (the browser follows with GET), 307/308 otherwise. */
export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

export class Outcome extends Error {
  readonly status: number;
  constructor(
    readonly kind: OutcomeKind,
    readonly location?: string,
    redirectStatus: RedirectStatus = 307,
    /** What was wrong with a bad request, for the visitor: `sort: expected "new" or "old"` (`message` is the marker's). */
    readonly detail?: string,
  ) {
    // An outcome is a page ending on purpose, never debugged by its stack: capturing one would cost
    // microseconds on every redirect after a form post.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`${OUTCOME_MARKER}:${kind}`);
    Error.stackTraceLimit = limit;
    this.name = "Outcome";
    this.status = kind === "redirect" ? redirectStatus : STATUS[kind];
  }

  /**
   * The outcome as an HTTP response, for places with no page to render (an API route, a plugin): the status,
   * `Location` for a redirect, and a short body in the format the caller speaks. Never cached: an outcome
   * usually depends on who asks.
   */
  toResponse(format: "text" | "json" = "text"): Response {
    const headers = outcomeHeaders(this);
    if (this.kind === "redirect") return new Response(null, { status: this.status, headers });
    const message = this.kind.replace("-", " ");
    // JSON leaves out a detail that is undefined: only a bad request has one.
    if (format === "json")
      return Response.json({ error: message, message: this.detail }, { status: this.status, headers });
    headers["content-type"] = "text/plain; charset=utf-8";
    return new Response(this.detail === undefined ? `${message}\n` : `${message}: ${this.detail}\n`, {
      status: this.status,
      headers,
    });
  }
}

/** An outcome's own response headers: never cached (an outcome usually depends on who asks), and a redirect's Location. */
export function outcomeHeaders({ location }: Pick<OutcomeInfo, "location">): Record<string, string> {
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (location !== undefined) headers.location = location;
  return headers;
}

export function isOutcome(value: unknown): value is Outcome {
  return value instanceof Outcome;
}

export function notFound(): never {
  throw new Outcome("not-found");
}

export function forbidden(): never {
  throw new Outcome("forbidden");
}

export function unauthorized(): never {
  throw new Outcome("unauthorized");
}

/** How `redirect()` answers: its status, and whether the target may be another site. */
export interface RedirectOptions {
  permanent?: boolean;
  status?: RedirectStatus;
  /** The target may be another site's http(s) URL (a payment page, an identity provider): without it, only this site's. */
  external?: boolean;
}

/**
 * Throws a redirect: 307 by default, 308 with `permanent`, or the `status` given (an action's redirect is 303, so
 * the browser follows it with a GET). The target is a path on this site unless `external` says otherwise; any
 * target a browser could read as another host or as script (`//host`, `/\host`, a control character, a scheme
 * without `external`, `javascript:` ever) is a programming error, not a redirect: a plain Error naming the
 * target and the fix, which becomes a 500 with a digest, reported once. Untrusted input goes through `returnTo`.
 */
export function redirect<const To extends string>(
  url: CheckedHref<To>,
  options?: RedirectOptions & { external?: false },
): never;
/** Another site's http(s) URL, on purpose. */
export function redirect(url: string, options: RedirectOptions & { external: true }): never;
export function redirect(url: string, options: RedirectOptions = {}): never {
  const location = redirectLocation(url, options.external === true);
  throw new Outcome("redirect", location, options.status ?? (options.permanent ? 308 : 307));
}

/** The wire form of an outcome, as it travels in page data and streamed loader data. */
export interface OutcomeInfo {
  kind: OutcomeKind;
  location?: string;
  status: number;
  /** A bad request's detail, which its page shows. */
  message?: string;
}

export function outcomeInfo({ kind, location, status, detail }: Outcome): OutcomeInfo {
  const info: OutcomeInfo = location === undefined ? { kind, status } : { kind, location, status };
  if (detail !== undefined) info.message = detail;
  return info;
}

export function outcomeFromInfo(info: OutcomeInfo): Outcome {
  return new Outcome(info.kind, info.location, info.status as RedirectStatus, info.message);
}
