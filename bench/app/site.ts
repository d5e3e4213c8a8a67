// site.ts: the bench app's pages with the status each answers: the home page lists them, and the soak
// (bench/soak-load.ts) asks for every one and holds the answers to these statuses.
export interface SitePage {
  href: string;
  title: string;
  /** The status a GET answers, then what the page shows. */
  status: number;
  shows: string;
  /** Its body keeps streaming after the shell. */
  streamed?: boolean;
}

export const SITE: readonly SitePage[] = [
  { href: "/items", title: "Items", status: 200, shows: "50 items, about 10 KB of HTML, rendered for every request" },
  {
    href: "/session/items",
    title: "Your items",
    status: 401,
    shows: "the items behind a signed session cookie (401 without one)",
  },
  {
    href: "/section/items",
    title: "Items in a section",
    status: 200,
    shows: "the items page two levels down: a layout with its loader around it",
  },
  {
    href: "/cached/items",
    title: "Cached items",
    status: 200,
    shows: "the items page kept in the render cache for an hour",
  },
  {
    href: "/cached/guestbook",
    title: "Cached guestbook",
    status: 200,
    shows: "the newest entries, cached until a write through the API revalidates them",
  },
  {
    href: "/shell/items",
    title: "Items, partly prerendered",
    status: 200,
    shows: "the table in a shell prerendered at start, one line per request",
  },
  {
    href: "/stream",
    title: "Streaming",
    status: 200,
    shows: "the shell at once, a section 300 ms later",
    streamed: true,
  },
  {
    href: "/guestbook",
    title: "Guestbook",
    status: 200,
    shows: "the newest entries; a form post stores one in SQLite and answers 303",
  },
  { href: "/api/items", title: "Items API", status: 200, shows: "the same 50 items as JSON" },
  { href: "/redirect", title: "Redirect", status: 307, shows: "a loader redirects home" },
  { href: "/not-found", title: "Not found", status: 404, shows: "a loader ends in notFound()" },
  { href: "/forbidden", title: "Forbidden", status: 403, shows: "a loader ends in forbidden()" },
  { href: "/unauthorized", title: "Unauthorized", status: 401, shows: "a loader ends in unauthorized()" },
  { href: "/server-error", title: "Server error", status: 500, shows: "a loader throws: the error page with a digest" },
  { href: "/render-error", title: "Render error", status: 500, shows: "a component throws while the shell renders" },
  {
    href: "/late-error",
    title: "Late error",
    status: 200,
    shows: "a streamed section fails after the shell",
    streamed: true,
  },
  {
    href: "/late-not-found",
    title: "Late not found",
    status: 200,
    shows: "notFound() in a streamed section",
    streamed: true,
  },
  { href: "/no/such/page", title: "Anything else", status: 404, shows: "the not-found page" },
];

/** The pages that fail on purpose: their error log lines are expected. */
export const FAILING_PATHS: ReadonlySet<string> = new Set(["/server-error", "/render-error", "/late-error"]);
