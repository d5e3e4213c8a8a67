// hold.ts: development only: a request that comes while the dev server is busy (loading the app at start,
// building the edits saved) waits for it, up to a bound; past the bound it gets a page that says what it waits for.
import { DEV_PAGE_HEADERS } from "./dev-page.ts";

/** How long a request waits at most: longer than a first load or a rebuild takes, short of a browser giving up. */
const HOLD_MS = 10_000;

/** Seconds a client waits before asking again; the waiting page reloads itself after as many. */
const RETRY_AFTER_S = 1;

export interface Hold {
  /** The app has loaded, or failed to (its error page answers then): requests no longer wait for it. */
  loaded(): void;
  /** Waits for the app to have loaded and for `edits` (the edits saved so far, built): undefined, or past the bound the waiting page. */
  wait(edits: Promise<unknown>): Promise<Response | undefined>;
}

export function createHold({ holdMs = HOLD_MS } = {}): Hold {
  const loading = Promise.withResolvers<void>();
  let loaded = false;
  return {
    loaded() {
      loaded = true;
      loading.resolve();
    },
    async wait(edits) {
      const late = Promise.withResolvers<true>();
      const timer = setTimeout(late.resolve, holdMs, true);
      try {
        const ready = Promise.all([loading.promise, edits]).then(() => false);
        return (await Promise.race([ready, late.promise]))
          ? waitingPage(loaded ? "the edits saved to be built" : "the app to load", holdMs)
          : undefined;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** A 503 that says what the server is doing; a browser shows it and asks again, as Retry-After says. */
function waitingPage(waitingFor: string, holdMs: number): Response {
  const html = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta http-equiv="refresh" content="${RETRY_AFTER_S}">
<title>Waiting for ${waitingFor}</title>
<main id="dev-waiting">
<h1>Waiting for ${waitingFor}</h1>
<p>The development server is still busy after ${holdMs / 1000} s; the terminal shows what it is doing. This page reloads by itself.</p>
</main>
</html>
`;
  return new Response(html, {
    status: 503,
    headers: { ...DEV_PAGE_HEADERS, "retry-after": String(RETRY_AFTER_S) },
  });
}
