// moves.ts: another page, or this one again: a link, back and forward, a GET form, an action's redirect, a
// revalidation. Each asks for what its load plan leaves to load, then shows the page with the levels it keeps.
import type { NavigateOptions, NavState } from "../navigation.ts";
import { holdOver, planLoad, type LoadCause, type LoadPlan } from "./load-plan.ts";
import { begin, commitPage, isCurrent, ready, settleAll, type NavigatorState } from "./navigator-state.ts";
import { fetchPageData, NotPageData, type FetchedPage } from "./page-data-client.ts";
import { clearPrefetched, takePrefetched } from "./prefetch.ts";

/** Redirect chains longer than this are a loop; the browser's own full load will say so. */
const MAX_REDIRECTS = 5;

/** The state with one more revalidation counted. */
const afterRevalidation = (state: NavState): NavState => ({ ...state, revalidated: (state.revalidated ?? 0) + 1 });

/** How the history entry and scroll position follow a commit. */
export interface Move {
  history: "push" | "replace" | "none";
  scroll: boolean;
}

export interface GoOptions extends NavigateOptions {
  /** Back or forward: the browser has moved its history already. */
  pop?: boolean;
  /** A link unless told. */
  cause?: LoadCause;
}

function scrollAfterCommit(url: URL) {
  const anchor = url.hash && document.getElementById(decodeURIComponent(url.hash.slice(1)));
  if (anchor) anchor.scrollIntoView();
  else window.scrollTo(0, 0);
}

/** Follows redirects in page data, then loads the page's code and shows it with the levels `plan` keeps. */
export async function show(
  n: NavigatorState,
  first: FetchedPage,
  from: URL,
  plan: LoadPlan,
  move: Move,
  cause: LoadCause,
  signal: AbortSignal,
): Promise<void> {
  let url = from;
  let fetched = first;
  for (let hops = 0; fetched.payload.outcome?.kind === "redirect"; hops++) {
    const next = new URL(fetched.payload.outcome.location!, url);
    if (next.origin !== location.origin || hops === MAX_REDIRECTS) return location.assign(next.href);
    // The visitor never sees the redirecting URL: the entry it was to have, or the one it is on, shows the target.
    url = next;
    if (move.history === "none") move = { ...move, history: "replace" };
    plan = planLoad(n.store.getState(), url, n.tree, cause);
    fetched = await fetchPageData(url, n.buildId, signal, { keep: plan.keptLevels });
  }
  const payload = holdOver(fetched.payload, plan);
  const readiness = await ready(n, url, payload, signal);
  if (readiness === "reloading" || signal.aborted) return;
  const href = url.pathname + url.search + url.hash;
  const shown = n.store.getState().page;
  // Kept for a page no longer showing (a fetcher's page came between): load it whole.
  if (payload.levels.some(({ id, kept }) => kept && !shown.data.has(id))) return location.assign(url.href);
  const live = n.open(payload, shown);
  if (move.history !== "none") window.history[move.history === "push" ? "pushState" : "replaceState"](null, "", href);
  // Fetchers holding loaded data load it again whenever an action or a revalidation loaded the page's levels again.
  const reloaded = cause.kind !== "navigation" && plan.keep.some((kept) => !kept);
  const { revalidated } = reloaded ? afterRevalidation(n.store.getState()) : n.store.getState();
  commitPage(n, {
    path: url.pathname,
    search: url.search.slice(1),
    page: live.view,
    loadFailed: readiness === "failed",
    revalidated,
  });
  if (move.scroll) scrollAfterCommit(url);
  await settleAll(live, fetched);
}

/**
 * Shows the page at `to`. A new history entry unless told to replace, or it is the page showing (fetched
 * again, as a reload would), or the browser moved already (`pop`).
 */
export async function go(n: NavigatorState, to: string, options: GoOptions = {}): Promise<void> {
  const { replace = false, pop = false, cause = { kind: "navigation" } } = options;
  const target = new URL(to, location.href);
  if (target.origin !== location.origin) return location.assign(target.href);
  if (!pop && !options.cause && isCurrent(target) && target.hash) {
    const from = location.href;
    history[replace ? "replaceState" : "pushState"](null, "", target.href);
    // As a plain link to a #section would: what follows the hash (useUrl) hears of it, which pushState never says.
    if (location.href !== from)
      dispatchEvent(new HashChangeEvent("hashchange", { oldURL: from, newURL: location.href }));
    return scrollAfterCommit(target);
  }
  const formData = cause.kind === "revalidation" ? undefined : cause.form?.data;
  const controller = begin(
    n,
    formData ? { kind: "loading", to: target.href, formData } : { kind: "loading", to: target.href },
  );
  const plan = planLoad(n.store.getState(), target, n.tree, cause);
  try {
    const ahead = cause.kind === "navigation" ? takePrefetched(n, target, plan, controller.signal) : undefined;
    const fetched = await (ahead ?? fetchPageData(target, n.buildId, controller.signal, { keep: plan.keptLevels }));
    const history = replace || isCurrent(target) ? "replace" : "push";
    await show(
      n,
      fetched,
      target,
      plan,
      pop ? { history: "none", scroll: false } : { history, scroll: true },
      cause,
      controller.signal,
    );
  } catch (error) {
    if (controller.signal.aborted) return;
    if (error instanceof NotPageData) return location.assign(target.href);
    // Offline or reset: stay on the current page, whose URL has not changed, and offer a retry.
    commitPage(n, {
      ...n.store.getState(),
      pending: undefined,
      failedNavigation: { to: target.href, retry: () => void go(n, to, options) },
    });
  }
}

/**
 * The page showing, loaded again where its plan says (every level, unless a route's shouldRevalidate or an
 * action's error status keeps it), its URL and scroll position unchanged. `answered`: the page's data as an
 * action posted to this page answered it, loaded after the action already; asking again would run its
 * loaders twice.
 */
export async function revalidate(
  n: NavigatorState,
  cause: LoadCause = { kind: "revalidation" },
  answered?: FetchedPage,
): Promise<void> {
  // What was loaded ahead may have changed too.
  clearPrefetched(n);
  const here = new URL(location.href);
  const plan = planLoad(n.store.getState(), here, n.tree, cause);
  // Nothing to load: the fetchers waiting for the page go idle now.
  if (plan.keep.length > 0 && plan.keep.every(Boolean)) return commitPage(n, n.store.getState());
  const controller = begin(n, { kind: "loading", to: here.href });
  try {
    const fetched = answered ?? (await fetchPageData(here, n.buildId, controller.signal, { keep: plan.keptLevels }));
    await show(n, fetched, here, plan, { history: "none", scroll: false }, cause, controller.signal);
  } catch (error) {
    if (controller.signal.aborted) return;
    if (error instanceof NotPageData) return location.reload();
    commitPage(n, {
      ...n.store.getState(),
      pending: undefined,
      failedNavigation: { to: here.href, retry: () => void revalidate(n, cause) },
    });
  }
}
