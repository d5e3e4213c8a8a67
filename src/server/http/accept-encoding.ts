// accept-encoding.ts: picks the content coding a client accepts most from those on offer (RFC 9110 12.5.3).
import { qValues } from "./q-values.ts";

/** x-gzip is gzip's old name (RFC 9110 8.4.1.3). */
const gzipAlias = (coding: string) => (coding === "x-gzip" ? "gzip" : coding);

/**
 * The coding of `offered` (listed best first) with the highest weight above 0, a tie going to the earlier
 * one; undefined for the identity coding. `*` stands for every coding the header does not name.
 */
export function pickEncoding<T extends string>(header: string | null, offered: readonly T[]): T | undefined {
  if (!header || offered.length === 0) return undefined;
  const accepted = qValues(header, gzipAlias);
  const other = accepted.get("*") ?? 0;
  let best: T | undefined;
  let bestQ = 0;
  for (const coding of offered) {
    const q = accepted.get(coding) ?? other;
    if (q > bestQ) [best, bestQ] = [coding, q];
  }
  return best;
}
