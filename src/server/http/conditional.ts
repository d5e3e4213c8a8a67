// conditional.ts: the preconditions of a GET or HEAD (If-Match, If-Unmodified-Since, If-None-Match,
// If-Modified-Since: RFC 9110 13.1, in 13.2.2's order) against a response's validators, for public files,
// client assets and prerendered pages alike, and the HTTP-date those headers hold (RFC 9110 5.6.7).
import { text } from "../request/responses.ts";

/** A strong ETag for exactly these bytes: two responses share it only when their bytes are the same. */
export function etagOf(bytes: Uint8Array | string): string {
  return `"${Bun.hash(bytes).toString(36)}"`;
}

/** The validators a representation has: at least one. */
interface Validators {
  etag?: string;
  /** The last modification, in ms since the epoch, in whole seconds as Last-Modified says it. */
  lastModified?: number;
}

/** An entity-tag in a list (RFC 9110 8.8.3): `"x"` or weak `W/"x"`; any character but a quote between them. */
const ENTITY_TAG = /(W\/)?"[\x21\x23-\x7e\x80-\xff]*"/g;

/** `*`, or each entity-tag the field lists. */
function listedTags(field: string): "*" | string[] {
  return field.trim() === "*" ? "*" : [...field.matchAll(ENTITY_TAG)].map((m) => m[0]);
}

const opaque = (tag: string) => (tag.startsWith("W/") ? tag.slice(2) : tag);

/** The strong comparison (RFC 9110 8.8.3.2): both strong and the same. */
const strongMatch = (a: string, b: string) => a === b && !a.startsWith("W/");

/** The weak comparison: the same once `W/` is set aside. */
const weakMatch = (a: string, b: string) => opaque(a) === opaque(b);

/** Whether a list field (If-Match, If-None-Match) names `etag` by `compare`, or is `*` (any current one). */
function names(field: string, etag: string | undefined, compare: (a: string, b: string) => boolean): boolean {
  const tags = listedTags(field);
  return tags === "*" || (etag !== undefined && tags.some((tag) => compare(tag, etag)));
}

/**
 * What a GET or HEAD whose answer would be a 200 gets instead, by its preconditions: 412 when If-Match names
 * none of the current tags by the strong comparison (a weak ETag never matches there, only `*` does) or, without
 * If-Match, the file changed after If-Unmodified-Since; 304 when If-None-Match names the tag by the weak
 * comparison or, without it, the file is not newer than If-Modified-Since. Undefined: send the representation.
 * A date that is not an HTTP-date is ignored, as if it were not sent (RFC 9110 13.1.3, 13.1.4).
 */
export function precondition(request: Request, { etag, lastModified }: Validators): 304 | 412 | undefined {
  const { headers } = request;
  const ifMatch = headers.get("if-match");
  if (ifMatch !== null) {
    if (!names(ifMatch, etag, strongMatch)) return 412;
  } else if (lastModified !== undefined) {
    const unmodifiedSince = parseHttpDate(headers.get("if-unmodified-since"));
    if (unmodifiedSince !== undefined && lastModified > unmodifiedSince) return 412;
  }
  const ifNoneMatch = headers.get("if-none-match");
  if (ifNoneMatch !== null) return names(ifNoneMatch, etag, weakMatch) ? 304 : undefined;
  if (lastModified === undefined) return undefined;
  const modifiedSince = parseHttpDate(headers.get("if-modified-since"));
  return modifiedSince !== undefined && lastModified <= modifiedSince ? 304 : undefined;
}

/** The 412's answer: short, and never kept by a cache. */
export function preconditionFailed(): Response {
  return text(412, "precondition failed: If-Match or If-Unmodified-Since does not hold for the current representation");
}

/**
 * What a GET or HEAD of a file gets instead of its 200, if its preconditions say so: a 304 with `headers`, the
 * 200's (RFC 9110 15.4.5), or the 412.
 */
export function conditionalResponse(
  request: Request,
  validators: Validators,
  headers: Record<string, string>,
): Response | undefined {
  const status = precondition(request, validators);
  if (status === 412) return preconditionFailed();
  return status === 304 ? new Response(null, { status, headers }) : undefined;
}

const DAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const LONG_DAY = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTH = `(${MONTHS.join("|")})`;
const TIME = "(\\d{2}):(\\d{2}):(\\d{2})";
/** `Sun, 06 Nov 1994 08:49:37 GMT`, what every sender writes today. */
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
/** `Sunday, 06-Nov-94 08:49:37 GMT`, obsolete, which recipients must still read. */
const RFC_850 = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
/** `Sun Nov  6 08:49:37 1994` (C's asctime), obsolete too; in GMT. */
const ASCTIME = new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/**
 * The time an HTTP-date names, in ms since the epoch, or undefined for anything else. Date.parse is not the
 * judge: it takes `2030`, `tomorrow`-like fragments and local times, and a validator that is not a date
 * must be ignored (RFC 9110 13.1.3), never read as one.
 */
function parseHttpDate(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const parts = dateParts(value, new Date(now).getUTCFullYear());
  if (!parts) return undefined;
  const [year, month, day, hour, minute, second] = parts;
  const time = Date.UTC(year, month, day, hour, minute, second);
  const date = new Date(time);
  // 31 Feb or 25:00 would roll over into another date: not one that was written.
  const written = [
    date.getUTCFullYear(),
    date.getUTCMonth(),
    date.getUTCDate(),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
  ];
  return written.every((v, i) => v === parts[i]) ? time : undefined;
}

/** Year, month (0-11), day, hours, minutes, seconds of an HTTP-date in any of its three forms. */
type DateParts = [year: number, month: number, day: number, hours: number, minutes: number, seconds: number];

function dateParts(value: string, thisYear: number): DateParts | undefined {
  let m = IMF_FIXDATE.exec(value);
  if (m) return [Number(m[3]), MONTHS.indexOf(m[2]!), Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6])];
  m = RFC_850.exec(value);
  if (m) {
    // A two-digit year more than 50 years ahead is the last such year in the past (RFC 9110 5.6.7).
    let year = Math.floor(thisYear / 100) * 100 + Number(m[3]);
    if (year > thisYear + 50) year -= 100;
    return [year, MONTHS.indexOf(m[2]!), Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6])];
  }
  m = ASCTIME.exec(value);
  if (m) return [Number(m[6]), MONTHS.indexOf(m[1]!), Number(m[2]!.trim()), Number(m[3]), Number(m[4]), Number(m[5])];
  return undefined;
}
