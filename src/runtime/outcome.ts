// outcome.ts: the non-error ways a page can end (redirect, not found, forbidden, unauthorized).
// Helpers throw an Outcome; the server turns it into a status and the client into a fallback.

export type OutcomeKind = "redirect" | "not-found" | "forbidden" | "unauthorized";

const STATUS: Record<Exclude<OutcomeKind, "redirect">, number> = {
  "not-found": 404,
  forbidden: 403,
  unauthorized: 401,
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
    if (format === "json") return Response.json({ error: message }, { status: this.status, headers });
    headers["content-type"] = "text/plain; charset=utf-8";
    return new Response(`${message}\n`, { status: this.status, headers });
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

/**
 * Throws a redirect: 307 by default, 308 with `permanent`, or the `status` given (an action's redirect is
 * 303, so the browser follows it with a GET). Script-bearing (`javascript:`, `data:`, `vbscript:`) and protocol-relative
 * (`//host`, `/\host`) targets are a programming error, not a redirect: they throw a plain Error,
 * which becomes a 500 with a digest instead of an open redirect or an XSS.
 */
export function redirect(url: string, options: { permanent?: boolean; status?: RedirectStatus } = {}): never {
  if (!isSafeRedirect(url)) throw new Error(`redirect(): refused unsafe target ${JSON.stringify(url.slice(0, 100))}`);
  throw new Outcome("redirect", url, options.status ?? (options.permanent ? 308 : 307));
}

export function isSafeRedirect(url: string): boolean {
  // Decided on the URL as a browser reads it (the URL standard's basic parser): C0 controls and spaces
  // around it dropped, tabs and newlines inside removed, backslashes taken for slashes. Otherwise
  // "\u0001//evil.example" reads here as a path and in the browser as another host. Other whitespace
  // around it is dropped too: a target that is only safe with it is refused.
  const target = url.replace(/[\t\n\r]/g, "").replace(/^[\u0000-\u0020\s]+|[\u0000-\u0020\s]+$/g, "");
  if (target === "" || /^[/\\]{2}/.test(target)) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(target)?.[1]?.toLowerCase();
  return scheme === undefined || scheme === "http" || scheme === "https";
}

/** The wire form of an outcome, as it travels in page data and streamed loader data. */
export interface OutcomeInfo {
  kind: OutcomeKind;
  location?: string;
  status: number;
}

export function outcomeInfo(outcome: Outcome): OutcomeInfo {
  return outcome.location === undefined
    ? { kind: outcome.kind, status: outcome.status }
    : { kind: outcome.kind, location: outcome.location, status: outcome.status };
}

export function outcomeFromInfo(info: OutcomeInfo): Outcome {
  return new Outcome(info.kind, info.location, info.status as RedirectStatus);
}
