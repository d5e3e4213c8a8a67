// Preview.server.ts: /examples/preview, a route without a page that answers HTML of its own making: a guestbook
// entry as it would look, from `?name=` and `?message=`. Brisk gives it a document's security headers (a CSP
// that runs no script, frame-ancestors, COOP, Referrer-Policy), as it gives a rendered page.
import type { LoaderContext } from "brisk";
import { ENTRY_LIMITS, type EntryField } from "../store/entry.ts";
import { xmlText } from "./GuestbookFeed.server.ts";

/** What the visitor typed, cut to what an entry may hold (in code points, as the store counts), as HTML text. */
function fieldHtml(search: URLSearchParams, field: EntryField, otherwise: string): string {
  const text = [...(search.get(field)?.trim() || otherwise)].slice(0, ENTRY_LIMITS[field]).join("");
  return text.split(/\r?\n/).map(xmlText).join("<br>");
}

export function previewLoader({ search }: LoaderContext) {
  const name = fieldHtml(search, "name", "Someone");
  const body = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Preview: ${name}</title></head>
<body>
<p id="preview-name">${name}</p>
<blockquote id="preview-message">${fieldHtml(search, "message", "Hello!")}</blockquote>
</body>
</html>
`;
  return new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
}
