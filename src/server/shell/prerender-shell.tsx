// prerender-shell.tsx: a shell route's page prerendered once with React's `prerender`, its loader data pending:
// the components that read it suspend, their <Suspense> boundaries stay holes, and React's postponed state says
// where resume-shell.ts renders them for each request.
import type { ReactElement } from "react";
import type { PostponedState } from "react-dom/static";
import { isLazyPage } from "../../runtime/lazy-page.ts";
import { staticNavigation } from "../../runtime/navigation.ts";
import type { RouteMatch } from "../../runtime/route-tree.ts";
import type { PageDeps } from "../pages/page-request.ts";
import { appElement } from "../pages/render.tsx";
import { pageBefore } from "../pages/resolve-page.ts";
import { SLOT_MARKERS } from "../prerender/page-slots.ts";
import { PrerenderError, prerenderingDeps } from "../prerender/prerender-routes.ts";
import { prerenderedPage, type PrerenderedPage } from "../prerender/prerendered-page.ts";
import { neverSettling, pendingData } from "./pending-data.ts";

/** A shell route's page without its holes, and what React needs to render them into it. */
export interface Shell {
  /** The page up to where its holes are resumed: the closing tags (resume writes them) taken off, slots for the nonce. */
  prelude: PrerenderedPage;
  /** React's postponed state as JSON: resume consumes the state it is given, so each request parses its own. */
  postponed: string;
}

/**
 * React's own inline tags, which `prerender` writes without a nonce (it takes none): the shell's paint-time script
 * and the stylesheets inlined into the page. The nonce slot goes on them, to be filled per response.
 */
const OWN_INLINE_TAGS = /<script(?= id="_R_")|<style(?= (?:media="not all" )?data-precedence=")/g;

/** What resume writes again at its end: the prelude's closing tags. */
const CLOSING_TAGS = /(?:<\/body>)?(?:<\/html>)?$/;

/** The page with every level's loader data pending: React's tree for the shell, the same as a request's but the data. */
function shellElement(path: string, match: RouteMatch, deps: PageDeps): ReactElement {
  const url = new URL(`http://${SLOT_MARKERS.host}${path}`);
  const { payload } = pageBefore(url, match, deps);
  const never = neverSettling();
  // A level without a loader has null, as on every request; the others' data is not there yet.
  const data = new Map(match.levels.map(({ node }) => [node.id, node.route.loader ? pendingData(never) : null]));
  const navigation = staticNavigation(
    { path, search: "", page: { payload, data } },
    deps.clientConfig,
    url.hostname,
    SLOT_MARKERS.nonce,
  );
  return appElement(deps, navigation, [], () => {});
}

/** A turn of the event loop: React's work scheduled by a timer or an immediate, and its promises, have run. */
const turn = () => new Promise<void>((resolve) => setTimeout(() => setImmediate(resolve)));

/**
 * React's way to end a partial prerender: abort once its work has settled (what still waits is postponed).
 * Rejects with the first error of the render other than that abort.
 */
async function prerenderSettled(
  root: ReactElement,
  waitMs: number,
): Promise<{ html: string; postponed: PostponedState | null }> {
  // Loaded by the first shell: an app without one never loads it. The edge build needs nothing of Node's (the node
  // one loads its streams); react-dom's Bun entry leaves `prerender` out of what it exports.
  const { prerender } = await import("react-dom/static.edge");
  const controller = new AbortController();
  const settled = new Error("the shell has rendered all it can without the loader data");
  let failure: { error: unknown } | undefined;
  const rendering = prerender(root, {
    signal: controller.signal,
    onError(error) {
      if (error !== settled) failure ??= { error };
    },
  });
  // Read once the work has settled: a shell that fails before then must not count as an unhandled rejection.
  rendering.catch(() => {});
  await turn();
  await turn();
  if (waitMs > 0) await Bun.sleep(waitMs);
  controller.abort(settled);
  const { prelude, postponed } = await rendering;
  const html = await new Response(prelude).text();
  if (failure) throw failure.error;
  return { html, postponed };
}

/**
 * How long each render waits past two turns before it ends: the shell is the first render that a longer wait leaves
 * the same. A static part that reads a file or a bundle once (or a lazy page's code) settles in the first few; a part
 * still pending after the last is a read of the loader data, or no part of a shell.
 */
const WAITS_MS = [0, 25, 250, 1000];

/** The shell's render, once waiting longer no longer changes it. */
async function settledShell(root: () => ReactElement): Promise<Awaited<ReturnType<typeof prerenderSettled>>> {
  let previous: Awaited<ReturnType<typeof prerenderSettled>> | undefined;
  for (const wait of WAITS_MS) {
    const rendered = await prerenderSettled(root(), wait);
    if (previous && previous.html === rendered.html) return previous;
    previous = rendered;
  }
  return previous!;
}

/** The shell of the route at `path` (its full pattern, which has no parameters). */
export async function prerenderShell(path: string, match: RouteMatch, deps: PageDeps): Promise<Shell> {
  const what = `route ${path} is a shell`;
  const slotDeps = prerenderingDeps(deps);
  await Promise.all(match.levels.map(({ node }) => isLazyPage(node.route.component) && node.route.component.preload()));
  let rendered: Awaited<ReturnType<typeof prerenderSettled>>;
  try {
    rendered = await settledShell(() => shellElement(path, match, slotDeps));
  } catch (error) {
    const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new PrerenderError(`${what}, but its shell failed to render: ${why}`, { cause: error });
  }
  const { html, postponed } = rendered;
  if (html === "")
    throw new PrerenderError(
      `${what}, but a component outside every <Suspense> reads loader data (the request's data: cookies, headers, ` +
        `the session), or waits on something still pending after ${WAITS_MS.at(-1)} ms: put it inside a ` +
        "<Suspense>, which becomes a hole rendered per request",
    );
  if (postponed === null)
    throw new PrerenderError(
      `${what}, but no component inside a <Suspense> reads loader data: it has no hole (mark it prerender instead)`,
    );
  const prelude = html.replace(CLOSING_TAGS, "").replace(OWN_INLINE_TAGS, `$& nonce="${SLOT_MARKERS.nonce}"`);
  return { prelude: prerenderedPage(prelude, 200, []), postponed: JSON.stringify(postponed) };
}
