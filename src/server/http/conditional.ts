// conditional.ts: If-None-Match against a response's ETag (RFC 9110 13.1.2), for public files and
// prerendered pages alike, and the HTTP-date an If-Modified-Since holds (RFC 9110 5.6.7).

/** Whether the header names `etag` or `*`; a weak tag matches its strong form (the weak comparison). */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  return ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag || tag.trim() === "*");
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
export function parseHttpDate(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const parts = dateParts(value, new Date(now).getUTCFullYear());
  if (!parts) return undefined;
  const [year, month, day, hour, minute, second] = parts;
  const time = Date.UTC(year, month, day, hour, minute, second);
  const date = new Date(time);
  // 31 Feb or 25:00 would roll over into another date: not one that was written.
  const written = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()];
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
