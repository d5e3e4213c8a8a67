// accept.ts: whether a request takes HTML rather than JSON, read from its Accept header with its q-values.
import { qValues } from "./q-values.ts";

/** The types a browser shows as a document: either means the request takes HTML. */
const HTML_TYPES = ["text/html", "application/xhtml+xml"];

/**
 * A media type's weight and how closely the header named it (2 itself, 1 its `type/*`, 0 `*\/*`): the most
 * specific range decides the weight (RFC 9110 12.5.1).
 */
function weightOf(accepted: Map<string, number>, type: string): [q: number, named: number] {
  const ranges = [type, `${type.slice(0, type.indexOf("/"))}/*`, "*/*"];
  for (const [i, range] of ranges.entries()) {
    const q = accepted.get(range);
    if (q !== undefined) return [q, ranges.length - 1 - i];
  }
  return [0, 0];
}

/**
 * True when the request weighs HTML above JSON, or as much but names it more closely: a browser's navigation
 * (`text/html, …, *\/*;q=0.8`) and `text/html, *\/*`, not `text/html;q=0`, nor `*\/*` alone (curl, fetch), nor
 * no Accept at all. A tie goes to JSON.
 */
export function acceptsHtml(request: Request): boolean {
  const header = request.headers.get("accept");
  if (!header) return false;
  const accepted = qValues(header);
  const [json, jsonNamed] = weightOf(accepted, "application/json");
  return HTML_TYPES.some((type) => {
    const [html, htmlNamed] = weightOf(accepted, type);
    return html > json || (html > 0 && html === json && htmlNamed > jsonNamed);
  });
}
