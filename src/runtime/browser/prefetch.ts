// prefetch.ts: a page's data and code loaded ahead of a click on a link to it (`<Link prefetch>`). The data
// asks for the levels the click would load, no more; the first navigation to the page uses it, once, while it
// is fresh and if that navigation keeps the same levels; an action or a revalidation throws it all away.
import { planLoad, type LoadPlan } from "./load-plan.ts";
import { isCurrent, type NavigatorState, type Prefetched } from "./navigator-state.ts";
import { fetchPageData, type FetchedPage } from "./page-data-client.ts";
import { preloadModules } from "./preload-modules.ts";

/** How long prefetched data stays fresh: a click after that asks the server again. */
export const PREFETCH_FRESH_MS = 30_000;

const keyOf = (url: URL) => url.pathname + url.search;

function drop(n: NavigatorState, key: string, entry: Prefetched | undefined = n.prefetched.get(key)): void {
  if (!entry || n.prefetched.get(key) !== entry) return;
  n.prefetched.delete(key);
  clearTimeout(entry.expiry);
  entry.controller.abort();
}

/** The stylesheets and chunks of the page, into the browser's cache: not applied, not run. */
function warm(n: NavigatorState, { payload }: FetchedPage): void {
  preloadModules(payload.assets.js, n.nonce);
  for (const href of payload.assets.css) {
    if (document.head.querySelector(`link[href="${CSS.escape(href)}"]`)) continue;
    const link = document.createElement("link");
    link.rel = "preload";
    link.as = "style";
    link.href = href;
    if (n.nonce) link.nonce = n.nonce;
    document.head.append(link);
  }
}

/** Resolves once the page's data has arrived (or failed); at once when there is nothing to load ahead. */
export async function prefetch(n: NavigatorState, href: string): Promise<void> {
  const target = new URL(href, location.href);
  if (target.origin !== location.origin || isCurrent(target)) return;
  const route = n.tree.match(target.pathname)?.route;
  // A route without a page (route-tree's isResourceRoute, not imported: the entry holds that module) answers
  // with what it returns, not page data; a link to it loads it whole.
  if (route && route.component === undefined && route.children === undefined) return;
  const { keptLevels } = planLoad(n.store.getState(), target, n.tree, { kind: "navigation" });
  const key = keyOf(target);
  const existing = n.prefetched.get(key);
  if (existing && existing.keptLevels === keptLevels && Date.now() - existing.at < PREFETCH_FRESH_MS) return;
  drop(n, key);
  const controller = new AbortController();
  const fetched = fetchPageData(target, n.buildId, controller.signal, { keep: keptLevels });
  const entry: Prefetched = {
    keptLevels,
    at: Date.now(),
    fetched,
    controller,
    expiry: setTimeout(() => drop(n, key, entry), PREFETCH_FRESH_MS),
  };
  n.prefetched.set(key, entry);
  await fetched.then(
    (fetched) => warm(n, fetched),
    () => drop(n, key, entry),
  );
}

/**
 * The prefetched page data for a navigation to `target` with `plan`, taken (it is used once), or undefined. If
 * the prefetch fails after all, the navigation asks again; abandoning the navigation abandons the prefetch.
 */
export function takePrefetched(
  n: NavigatorState,
  target: URL,
  plan: LoadPlan,
  signal: AbortSignal,
): Promise<FetchedPage> | undefined {
  const key = keyOf(target);
  const entry = n.prefetched.get(key);
  if (!entry) return undefined;
  n.prefetched.delete(key);
  clearTimeout(entry.expiry);
  if (entry.keptLevels !== plan.keptLevels || Date.now() - entry.at >= PREFETCH_FRESH_MS) {
    entry.controller.abort();
    return undefined;
  }
  signal.addEventListener("abort", () => entry.controller.abort(), { once: true });
  return entry.fetched.catch((error: unknown) => {
    if (signal.aborted) throw error;
    return fetchPageData(target, n.buildId, signal, { keep: plan.keptLevels });
  });
}

export function clearPrefetched(n: NavigatorState): void {
  for (const key of [...n.prefetched.keys()]) drop(n, key);
}
