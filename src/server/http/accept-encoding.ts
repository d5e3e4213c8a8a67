// accept-encoding.ts: picks the content coding a client accepts most from those on offer (RFC 9110 12.5.3).

/** A qvalue is 0 to 1 with at most three decimals; anything else is no acceptance at all. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** Each coding the header names, lower-cased, with its weight: `br;q=0` names br to refuse it. */
function weights(header: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const entry of header.split(",")) {
    const [name = "", ...params] = entry.split(";");
    // x-gzip is gzip's old name (RFC 9110 8.4.1.3).
    const coding = name.trim().toLowerCase().replace(/^x-gzip$/, "gzip");
    if (!coding || found.has(coding)) continue;
    let q = 1;
    for (const param of params) {
      const eq = param.indexOf("=");
      if (param.slice(0, eq).trim().toLowerCase() !== "q") continue;
      const value = param.slice(eq + 1).trim();
      q = QVALUE.test(value) ? Number(value) : 0;
    }
    found.set(coding, q);
  }
  return found;
}

/**
 * The coding of `offered` (listed best first) with the highest weight above 0, a tie going to the earlier
 * one; undefined for the identity coding. `*` stands for every coding the header does not name.
 */
export function pickEncoding<T extends string>(header: string | null, offered: readonly T[]): T | undefined {
  if (!header || offered.length === 0) return undefined;
  const accepted = weights(header);
  const other = accepted.get("*") ?? 0;
  let best: T | undefined;
  let bestQ = 0;
  for (const coding of offered) {
    const q = accepted.get(coding) ?? other;
    if (q > bestQ) [best, bestQ] = [coding, q];
  }
  return best;
}
