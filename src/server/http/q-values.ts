// q-values.ts: reads a header of weighted choices (Accept, Accept-Encoding: RFC 9110 12.4.2) into each choice's weight.

/** A qvalue is 0 to 1 with at most three decimals; anything else is no acceptance at all. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * Each choice the header names, lower-cased, with its weight (1 unless its `q` says otherwise): `br;q=0` names
 * br to refuse it. A choice named twice keeps its first weight; parameters other than `q` are not part of it.
 * `alias` maps an old name to the one it stands for, before that rule applies.
 */
export function qValues(header: string, alias: (choice: string) => string = (choice) => choice): Map<string, number> {
  const found = new Map<string, number>();
  for (const entry of header.split(",")) {
    const [name = "", ...params] = entry.split(";");
    const choice = alias(name.trim().toLowerCase());
    if (!choice || found.has(choice)) continue;
    let q = 1;
    for (const param of params) {
      const eq = param.indexOf("=");
      if (param.slice(0, eq).trim().toLowerCase() !== "q") continue;
      const value = param.slice(eq + 1).trim();
      q = QVALUE.test(value) ? Number(value) : 0;
    }
    found.set(choice, q);
  }
  return found;
}
