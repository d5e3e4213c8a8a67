// fuzz.ts (test support): the seed, run counts and hostile strings the property tests share.
//
//   FUZZ_SEED=123 FUZZ_RUNS=20000 NODE_ENV=production bun test --timeout 600000 test/server/fuzz/fuzz-tunnel.test.ts
//
// A failed property's message holds `{ seed: …, path: "…" }`; the same FUZZ_SEED (and FUZZ_RUNS) replays it.
import fc from "fast-check";

/** Fixed, so every run of the suite tries the same cases and a failure in CI replays on a laptop. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20_260_601);

/** Cases for an in-process property; the defaults keep each test file under ~15 s on one core. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 2_000);

/**
 * fast-check parameters for a property that runs `share` of FUZZ_RUNS cases (sockets and browsers are
 * slower per case, so they take a share). The seed is printed with the counterexample on failure.
 */
export function fuzzParams<T>(share = 1): fc.Parameters<T> {
  return { seed: FUZZ_SEED, numRuns: Math.max(1, Math.round(FUZZ_RUNS * share)) };
}

/** Marks generated input: any raw `<x-fuzz` in a response is input that reached HTML unescaped. */
export const MARKER = "<x-fuzz>";

/** The pieces that break naive embedding: script ends, comments, JS line ends, NUL, quotes, entities. */
const NASTY = [
  "</script>",
  "</SCRIPT >",
  "</script\t",
  "<script>",
  "<!--",
  "-->",
  "<!-- <script>",
  "\u2028",
  "\u2029",
  "\0",
  "&",
  "&lt;",
  "&#x3c;",
  MARKER,
  '"><x-fuzz>',
  "\\",
  '"',
  "'",
  "`",
  "${x}",
  "\r\n",
  "\r",
  "\uFEFF",
  "]]>",
  "\u{1F600}",
  "e\u0301",
  "%",
  "%3C",
  "+",
  "=&",
  "#",
  "?",
];

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

/**
 * Strings built from hostile pieces, any code point, and control characters; with `loneSurrogates`,
 * unpaired UTF-16 halves too (they cannot travel in a URL, so only in-process and browser tests use them).
 */
export function hostileString({ loneSurrogates = false, maxPieces = 12 } = {}): fc.Arbitrary<string> {
  const pieces: Array<fc.Arbitrary<string>> = [
    fc.constantFrom(...NASTY),
    fc.string({ unit: "binary", maxLength: 6 }),
    fc.string({ unit: "binary-ascii", maxLength: 6 }),
    fc.string({ unit: "grapheme", maxLength: 4 }),
  ];
  if (loneSurrogates) pieces.push(loneSurrogate);
  return fc.array(fc.oneof(...pieces), { maxLength: maxPieces }).map((p) => p.join(""));
}

/** UTF-16 code units: the lossless way to compare a string that went through a browser. */
export function codeUnits(s: string): number[] {
  return Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));
}

/** Counts what a property's cases ran into, so its output shows the cases were not all alike. */
export function tally(title: string) {
  const counts = new Map<string, number>();
  return {
    add(key: string | number) {
      counts.set(String(key), (counts.get(String(key)) ?? 0) + 1);
    },
    count: (key: string | number) => counts.get(String(key)) ?? 0,
    print() {
      const parts = [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k} ×${n}`);
      console.log(`${title} (seed ${FUZZ_SEED}): ${parts.join(", ")}`);
    },
  };
}
