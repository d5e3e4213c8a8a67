// GuestbookFeed.server.ts: /examples/guestbook.rss, a route without a page: its loader answers with an RSS 2.0
// document of the newest entries, which Brisk sends as it is.
import type { LoaderContext } from "brisk";
import { store } from "../lifecycle.server.ts";
import type { Entry } from "../store/guestbook.server.ts";

/**
 * Text as XML character data or an attribute value. Characters XML 1.0 cannot hold at all (U+FFFE, U+FFFF, C0
 * controls but tab and line ends, lone surrogates: validateEntry keeps most of them out of the store) become
 * U+FFFD, so no entry can make the feed unreadable.
 */
export function xmlText(text: string): string {
  return text
    .toWellFormed()
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "\ufffd")
    .replace(/[&<>"']/g, (c) => XML_ENTITIES[c]!);
}

const XML_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/**
 * A message as RSS description: readers render a description as HTML, so the text is made HTML first (its
 * markup escaped, its line breaks <br>) and that HTML is then escaped as XML. A message that says <b> shows "<b>".
 */
function descriptionOf(message: string): string {
  return xmlText(message.split("\n").map(xmlText).join("<br>"));
}

function itemOf(entry: Entry, origin: string): string {
  const link = xmlText(`${origin}/examples/guestbook/${entry.id}`);
  return `<item>
<title>${xmlText(entry.name)}</title>
<link>${link}</link>
<guid isPermaLink="true">${link}</guid>
<pubDate>${new Date(entry.createdAt).toUTCString()}</pubDate>
<description>${descriptionOf(entry.message)}</description>
</item>`;
}

export async function guestbookFeedLoader({ url }: LoaderContext) {
  const entries = await store().guestbook.listEntries();
  const origin = url.origin;
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
<title>Brisk guestbook</title>
<link>${xmlText(`${origin}/examples/guestbook`)}</link>
<description>The newest entries of the Brisk example guestbook</description>
<atom:link href="${xmlText(`${origin}/examples/guestbook.rss`)}" rel="self" type="application/rss+xml"/>
${entries.map((entry) => itemOf(entry, origin)).join("\n")}
</channel>
</rss>
`;
  return new Response(body, { headers: { "content-type": "application/rss+xml; charset=utf-8" } });
}
