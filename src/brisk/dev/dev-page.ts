// dev-page.ts: development only: the live-reload script, and the page that shows a build error in the browser.

/** The server-sent event stream each page in development listens to. */
export const DEV_EVENTS_PATH = "/__dev/events";

/**
 * Reloads the page when the server announces another version than the one it was served with. It removes
 * its own tag first, so React never meets it while hydrating the document.
 */
export function reloadScript(version: string): string {
  return `(()=>{document.currentScript?.remove();const v=${JSON.stringify(version)},s=new EventSource(${JSON.stringify(DEV_EVENTS_PATH)});s.onmessage=e=>{if(e.data!==v){s.close();location.reload()}}})();`;
}

/** The compiler's own rendering (message, file:line:column, code frame) of an error, or of each in an AggregateError. */
export function describeError(error: unknown, { root = "", colors = false } = {}): string {
  const parts = error instanceof AggregateError && error.errors.length > 0 ? error.errors : [error];
  const text = parts.map((part) => Bun.inspect(part, { colors })).join("\n\n");
  return root ? text.replaceAll(`${root}/`, "") : text;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function devErrorPage({ title, detail }: { title: string; detail: string }, version: string): string {
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
<script>${reloadScript(version)}</script>
</html>
`;
}
