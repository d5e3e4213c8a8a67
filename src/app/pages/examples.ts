// examples.ts: the example routes the home page lists, one line each on what they show.
import type { Href } from "brisk";

interface Example {
  title: string;
  shows: string;
  status: string;
}

/**
 * A page is linked by a path of the route table (a typo is a type error). Not a page (JSON, a feed, an API route):
 * a plain link loads it, where a client navigation would fetch it twice.
 */
export type ExampleLink = Example & ({ href: Href; notAPage?: undefined } | { href: string; notAPage: true });

/** A path no route answers, on purpose: the not-found page's examples, which the table's check would refuse. */
const unmatched = (path: string) => path as Href;

export const EXAMPLES: readonly ExampleLink[] = [
  {
    href: "/examples/stream",
    title: "Streaming",
    shows: "the shell arrives at once, a section about 300 ms later",
    status: "200, streamed",
  },
  {
    href: "/examples/search?q=brisk",
    title: "Search",
    shows: "echoes the query on the page and in loader data",
    status: "200",
  },
  { href: "/examples/redirect", title: "Redirect", shows: 'a loader calls redirect("/")', status: "307" },
  { href: "/examples/not-found", title: "Not found", shows: "a loader calls notFound()", status: "404" },
  { href: "/examples/forbidden", title: "Forbidden", shows: "a loader calls forbidden()", status: "403" },
  { href: "/examples/unauthorized", title: "Unauthorized", shows: "a loader calls unauthorized()", status: "401" },
  {
    href: "/examples/server-error",
    title: "Server error",
    shows: "a loader throws: the error page carries a digest",
    status: "500",
  },
  {
    href: "/examples/render-error",
    title: "Render error",
    shows: "a component throws while the shell renders",
    status: "500",
  },
  {
    href: "/examples/late-error",
    title: "Late error",
    shows: "a streamed section fails after the shell went out",
    status: "200, digest on the client",
  },
  {
    href: "/examples/late-not-found",
    title: "Late not found",
    shows: "notFound() inside a streamed section",
    status: "200 + noindex",
  },
  {
    href: "/examples/instant",
    title: "Settled before the shell",
    shows: "streamed values already resolved and rejected when the shell renders, each in its section",
    status: "200, the server's digest on the client",
  },
  {
    href: "/examples/client-error",
    title: "Client error",
    shows: "a button that throws in the browser",
    status: "200, then the client-side error page",
  },
  {
    href: "/examples/lazy",
    title: "Code-split route",
    shows: "a route with its own chunk and stylesheet",
    status: "200, prerendered",
  },
  {
    href: "/examples/guestbook",
    title: "Guestbook",
    shows: "a form with an action, validation and a real store; works with JavaScript off",
    status: "200; post: 303, 422, or 403 cross-site",
  },
  { href: "/examples/guestbook/1", title: "Guestbook entry", shows: "one entry, by id", status: "200, or 404" },
  {
    href: "/examples/api-client",
    title: "Typed API client",
    shows: "a component signs the guestbook through /api/guestbook with apiClient: typed body, answer and 422 fields",
    status: "200; post: 201, or 422",
  },
  {
    href: "/examples/guestbook.rss",
    title: "Guestbook feed",
    shows:
      "a route without a page: RSS 2.0 of the entries (each entry's Like button posts to another: an action-only route)",
    status: "200 RSS; like: 303",
    notAPage: true,
  },
  {
    href: "/examples/preview?name=Ada&message=Hello%20%3Cb%3E",
    title: "Entry preview",
    shows: "a route without a page answering HTML: the document's security headers, a CSP that runs no script",
    status: "200 HTML",
    notAPage: true,
  },
  {
    href: "/api/guestbook",
    title: "Guestbook API",
    shows: "the same entries as JSON; POST JSON to add one",
    status: "200; post: 201, 422, 400, 415",
    notAPage: true,
  },
  {
    href: "/api/boom",
    title: "API error",
    shows: "an API route throws: JSON with the digest and the request id",
    status: "500 JSON",
    notAPage: true,
  },
  {
    href: "/examples/session",
    title: "Session",
    shows:
      "sign in with a name: a signed cookie, then 303 to the account, or to ?next= when it is a path on this site; a fetcher reveals a secret to a signed-in visitor only",
    status: "200; post: 303; reveal: 200, or 401",
  },
  {
    href: "/examples/account",
    title: "Account",
    shows:
      "a layout guarded by one middleware: without a session, a page visit goes to sign-in and back (next); page data, posts and the export are 401",
    status: "200; signed out: 307 to sign-in, or 401",
  },
  {
    href: "/examples/account/notes",
    title: "Notes",
    shows: "your notes, kept in the store per name, and a form to add one",
    status: "200; post: 303, 422; 401 signed out",
  },
  {
    href: "/examples/account/notes.csv",
    title: "Notes as CSV",
    shows: "a route without a page under the guarded layout",
    status: "200 text/csv, or 401",
    notAPage: true,
  },
  {
    href: "/examples/cached",
    title: "Cached",
    shows: "a loader that sets Cache-Control: public, max-age=60",
    status: "200",
  },
  {
    href: "/examples/popular",
    title: "Render cache",
    shows:
      "the guestbook's count and most liked entry, rendered once and kept 60 s under a tag; a post or a like drops it",
    status: "200, x-cache: miss then hit",
  },
  {
    href: "/examples/shell",
    title: "Partial prerendering",
    shows: "a page prerendered once as the server starts, whose one hole greets the signed-in visitor per request",
    status: "200, the shell from memory",
  },
  {
    href: "/examples/types",
    title: "Data on the wire",
    shows: "loader data with a Date, a Set, a Map, a BigInt, a URL and undefined, used as such in the page",
    status: "200",
  },
  {
    href: "/examples/proto",
    title: "A __proto__ key",
    shows: "parsed JSON with a __proto__ key: an ordinary key on the document and after a client navigation",
    status: "200",
  },
  {
    href: "/examples/nested",
    title: "Nested routes",
    shows: "a layout with its own loader and state, kept while you move between its children",
    status: "200",
  },
  {
    href: "/examples/nested/items/1",
    title: "Nested child",
    shows: "a child route in the layout's Outlet",
    status: "200",
  },
  {
    href: "/examples/nested/items/404",
    title: "Not found inside a layout",
    shows: "a child's notFound() shown by the layout's own fallback, the layout around it",
    status: "404",
  },
  {
    href: "/examples/nested/broken",
    title: "Error inside a layout",
    shows: "a child's loader throws: the error and its digest inside the layout",
    status: "500",
  },
  {
    href: "/examples/nested/slow",
    title: "Loaders side by side",
    shows: "the layout's and the child's loaders wait 300 ms each: the page takes one wait, not two",
    status: "200 in about 300 ms",
  },
  {
    href: unmatched("/examples/nested/no/such/child"),
    title: "Unmatched inside a layout",
    shows: "a path under the layout that no child matches: the not-found page inside the layout",
    status: "404",
  },
  {
    href: "/examples/files/a/b",
    title: "Splat route",
    shows: "/examples/files/* answers any path under it (declared first)",
    status: "200",
  },
  {
    href: "/examples/files/readme",
    title: "Ranked routes",
    shows: "/examples/files/readme wins over the splat declared before it",
    status: "200",
  },
  {
    href: unmatched("/no/such/page"),
    title: "Anything else",
    shows: "an unmatched path renders the not-found page",
    status: "404",
  },
];
