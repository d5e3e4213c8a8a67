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

export class Outcome extends Error {
  readonly status: number;
  constructor(
    readonly kind: OutcomeKind,
    readonly location?: string,
    permanent = false,
  ) {
    super(`${OUTCOME_MARKER}:${kind}`);
    this.name = "Outcome";
    this.status = kind === "redirect" ? (permanent ? 308 : 307) : STATUS[kind];
  }
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
 * Throws a redirect. Script-bearing (`javascript:`, `data:`, `vbscript:`) and protocol-relative
 * (`//host`, `/\host`) targets are a programming error, not a redirect: they throw a plain Error,
 * which becomes a 500 with a digest instead of an open redirect or an XSS.
 */
export function redirect(url: string, options: { permanent?: boolean } = {}): never {
  if (!isSafeRedirect(url)) throw new Error(`redirect(): refused unsafe target ${JSON.stringify(url.slice(0, 100))}`);
  throw new Outcome("redirect", url, options.permanent);
}

export function isSafeRedirect(url: string): boolean {
  // Browsers strip tabs and newlines and treat backslashes as slashes before parsing a URL.
  const target = url.replace(/[\t\n\r]/g, "").trim();
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
  return new Outcome(info.kind, info.location, info.status === 308);
}
