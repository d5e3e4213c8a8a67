// conditional.ts: If-None-Match against a stored answer's ETag (RFC 9110 13.1.2), for public files and
// prerendered pages alike.

/** Whether the header names `etag` or `*`; a weak tag matches its strong form (the weak comparison). */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  return ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag || tag.trim() === "*");
}
