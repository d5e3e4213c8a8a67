// script-json.ts: JSON text that is safe to place inside an inline <script>, as the string JSON.parse is given.

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
 * JSON text as a single-quoted string literal an inline <script> may hold (what it gives JSON.parse). JSON.stringify
 * already escapes lone surrogates and control characters; escaping `<`, `>` and `&` as well means no value can
 * close the script (`</script>`) or open a comment (`<!--`), and U+2028, U+2029 and line breaks cannot end a line
 * of the literal; then the literal's own quote and backslash. JSON is full of `"` and seldom holds `'`:
 * JSON.stringify of the text escaped every `"` at several times the cost, and sent a byte more for each
 * (bench/README.md, issue 30).
 */
export function scriptString(json: string): string {
  return `'${json.replace(UNSAFE_IN_STRING, (c) => STRING_ESCAPES[c]!)}'`;
}
