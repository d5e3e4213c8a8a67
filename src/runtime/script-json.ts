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
