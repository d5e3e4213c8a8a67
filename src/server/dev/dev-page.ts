// dev-page.ts: development only: the script that keeps open pages current, and the page that shows a build error.

/** The server-sent event stream each page in development listens to. */
export const DEV_EVENTS_PATH = "/__dev/events";

/** What each event on the stream says: the state of the dev server's code. */
export interface DevState {
  /** Changes when open pages must reload: on every restart, and after edits hot updates cannot carry. */
  version: string;
  /** Changes on every event: an error page reloads on any change, as it cannot tell what would fix it. */
  update: string;
  /** Stylesheet URL the page may link → the stylesheet now built from the same source. */
  styles: Record<string, string>;
}

/** The headers of every page the dev server makes itself: HTML, never kept by the browser. */
export const DEV_PAGE_HEADERS = { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } as const;

/** Set while Bun's hot updates reach the page (src/server/dev/hot-status.ts). */
export const HOT_UPDATES = "brisk:hot";

/**
 * The script at the end of each page. It removes its own tag first, so React never meets it while
 * hydrating the document. A page that rendered reloads when the version changes, and for any change at
 * all while Bun's hot updates do not reach it yet (component edits reach it as hot updates, from Bun's
 * development server); it swaps each stylesheet that has a newer build, the new one loaded before the old
 * one goes. An error page reloads on any change.
 */
export function reloadScript(served: Pick<DevState, "version" | "update">, { errorPage = false } = {}): string {
  const changed = `m.update!==${JSON.stringify(served.update)}`;
  const reloads = errorPage
    ? changed
    : `m.version!==${JSON.stringify(served.version)}||${changed}&&!globalThis[Symbol.for(${JSON.stringify(HOT_UPDATES)})]`;
  return `(()=>{document.currentScript?.remove();const s=new EventSource(${JSON.stringify(DEV_EVENTS_PATH)}),done=new WeakSet;s.onmessage=e=>{const m=JSON.parse(e.data);if(${reloads}){s.close();location.reload();return}for(const l of document.querySelectorAll("link[rel=stylesheet]")){const to=m.styles[new URL(l.href).pathname];if(!to||done.has(l))continue;done.add(l);const n=l.cloneNode();n.href=to;n.onload=()=>l.remove();l.after(n)}}})();`;
}

/** The compiler's own rendering (message, file:line:column, code frame) of an error, or of each in an AggregateError. */
export function describeError(error: unknown, { root = "", colors = false } = {}): string {
  const parts = error instanceof AggregateError && error.errors.length > 0 ? error.errors : [error];
  const text = parts.map((part) => Bun.inspect(part, { colors })).join("\n\n");
  return root ? text.replaceAll(`${root}/`, "") : text;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function devErrorPage(
  { title, detail }: { title: string; detail: string },
  served: Pick<DevState, "version" | "update">,
): string {
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { margin: 0; font: 16px/1.5 system-ui, sans-serif; background: #1b1b1f; color: #eee; }
  main { max-width: 60rem; margin: 3rem auto; padding: 0 1.5rem; }
  h1 { color: #ff8a80; font-size: 1.5rem; }
  pre { background: #111; padding: 1rem; overflow: auto; border-left: 4px solid #ff8a80; font-size: 14px; }
</style>
<main role="alert" id="dev-error">
<h1>${escapeHtml(title)}</h1>
<pre>${escapeHtml(detail)}</pre>
<p>Fix the file and save: this page reloads by itself.</p>
</main>
<script>${reloadScript(served, { errorPage: true })}</script>
</html>
`;
}
