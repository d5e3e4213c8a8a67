// script-json.ts: JSON that is safe to place inside an inline <script>.

const UNSAFE = /[<>&\u2028\u2029]/g;
const ESCAPES: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/**
 * JSON.stringify already escapes lone surrogates and control characters; escaping `<`, `>` and `&`
 * as well means no value can close the script (`</script>`), open a comment (`<!--`), or end a line
 * for older JS parsers (U+2028, U+2029). The result is still valid JSON and a valid JS expression.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, (c) => ESCAPES[c]!);
}

const UNSAFE_IN_STRING = /[\\'<>&\r\n\u2028\u2029]/g;
const STRING_ESCAPES: Record<string, string> = {
  "\\": "\\\\",
  "'": "\\'",
  "<": "\\x3c",
  ">": "\\x3e",
  "&": "\\x26",
  "\r": "\\r",
  "\n": "\\n",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/**
 * JSON text as a single-quoted string literal an inline <script> may hold (what it gives JSON.parse): the same
 * characters kept out as scriptJson, and the literal's own quote and backslash. JSON is full of `"` and seldom
 * holds `'`: JSON.stringify of the text escaped every `"` at several times the cost, and sent a byte more for each
 * (bench/README.md, issue 30).
 */
export function scriptString(json: string): string {
  return `'${json.replace(UNSAFE_IN_STRING, (c) => STRING_ESCAPES[c]!)}'`;
}
