// navigate.ts: client navigation and form submission: fetch the target's page data (posting the form, for a
// submission), load its code, then commit. A chunk of its own, loaded after hydration; it imports only types
// of what the entry holds, so it adds no shared chunk to the critical path: the entry hands those functions in.
import type { FetcherRequest, NavigateOptions, NavState, PageView, Submission } from "../navigation.ts";
import type { PagePayload } from "../page-payload.ts";
import type { RouteTree } from "../route-tree.ts";
import { fetchPageData, FullLoadNeeded, type FetchedPage } from "./page-data-client.ts";
import type { LivePage } from "./page-view.ts";
import { preloadModules } from "./preload-modules.ts";
import type { RouteReadiness } from "./recovery.ts";

/** Redirect chains longer than this are a loop; the browser's own full load will say so. */
const MAX_REDIRECTS = 5;

export type Navigate = (to: string, options: NavigateOptions & { pop?: boolean }) => Promise<void>;

export interface Navigator {
  go: Navigate;
  submit(submission: Submission): Promise<boolean>;
  revalidate(): Promise<void>;
  fetch(request: FetcherRequest): Promise<void>;
}

export interface CreateNavigateOptions {
  store: { getState(): NavState; commit(next: NavState, alongside?: () => void): void };
  tree: RouteTree;
  buildId: string;
  /** The document's CSP nonce, for the preloads of a page's chunks. */
  nonce: string | undefined;
  /** Loads the route's code and stylesheets, recovering when they fail (`loadRouteOrRecover`). */
  prepare(url: URL, payload: PagePayload, signal: AbortSignal): Promise<RouteReadiness>;
  /** The page view of a payload whose streamed values are still to come, its kept levels from `shown` (`livePage`). */
  open(payload: PagePayload, shown: PageView): LivePage;
}

/** Whether every streamed value of a level's data has arrived: one still coming cannot be kept. */
function settled(data: unknown): boolean {
  if (data === null || typeof data !== "object") return true;
  return Object.values(data).every((value: { then?: unknown; status?: string } | null) => typeof value?.then !== "function" || value.status === "fulfilled");
}

/**
 * How many outer levels of the page showing the target page keeps, their loaders not run again: the same
 * routes with the same params, under the same search, shown with all their data. Never the innermost.
 */
function keptLevels({ path, search, page }: NavState, target: URL, tree: RouteTree): number {
  const { error, outcome, boundary } = page.payload;
  if (target.search.slice(1) !== search || ((error || outcome) && !boundary)) return 0;
  const from = tree.match(path)?.levels ?? [];
  const to = tree.match(target.pathname)?.levels ?? [];
  const limit = Math.min(to.length - 1, from.length, boundary?.depth ?? Infinity);
  let kept = 0;
  while (kept < limit) {
    const [a, b] = [from[kept]!, to[kept]!];
    if (a.node !== b.node || JSON.stringify(a.params) !== JSON.stringify(b.params) || !settled(page.data.get(a.node.id))) break;
    kept++;
  }
  return kept;
}

function scrollAfterCommit(url: URL) {
  const anchor = url.hash && document.getElementById(decodeURIComponent(url.hash.slice(1)));
  if (anchor) anchor.scrollIntoView();
  else window.scrollTo(0, 0);
}

const isCurrent = (url: URL) => url.pathname === location.pathname && url.search === location.search;

/** How the history entry and scroll position follow a commit. */
interface Move {
  history: "push" | "replace" | "none";
  scroll: boolean;
}

export function createNavigate({ store, tree, buildId, nonce, prepare, open }: CreateNavigateOptions): Navigator {
  const ready = (url: URL, payload: PagePayload, signal: AbortSignal) => {
    preloadModules(payload.assets.js, nonce);
    return prepare(url, payload, signal);
  };
  let current: AbortController | undefined;
  /** Fetchers whose request ends with the next page the store shows: they go idle in the same render. */
  const ending: Array<() => void> = [];
  const commitPage = (next: NavState) => {
    const done = ending.splice(0);
    store.commit(next, done.length ? () => done.forEach((end) => end()) : undefined);
  };
  const begin = (pending: NonNullable<NavState["pending"]>) => {
    current?.abort();
    store.commit({ ...store.getState(), pending, failedNavigation: undefined });
    return (current = new AbortController());
  };
  /** Leaves the page as it was, without the pending state. */
  const settle = () => store.commit({ ...store.getState(), pending: undefined });

  /** Follows redirects in page data, then loads the page's code and shows it. */
  async function show(first: FetchedPage, from: URL, move: Move, signal: AbortSignal): Promise<void> {
    let url = from;
    let fetched = first;
    for (let hops = 0; fetched.payload.outcome?.kind === "redirect"; hops++) {
      const next = new URL(fetched.payload.outcome.location!, url);
      if (next.origin !== location.origin || hops === MAX_REDIRECTS) return location.assign(next.href);
      // The visitor never sees the redirecting URL: its history entry becomes the target's.
      url = next;
      // Back, forward or a revalidation that was redirected: the entry it is on shows the target's address.
      if (move.history === "none") move = { ...move, history: "replace" };
      fetched = await fetchPageData(url, buildId, signal);
    }
    const readiness = await ready(url, fetched.payload, signal);
    if (readiness === "reloading" || signal.aborted) return;
    const href = url.pathname + url.search + url.hash;
    const shown = store.getState().page;
    // Kept by the server for a page no longer showing (another navigation came between): load it whole.
    if (fetched.payload.levels.some(({ id, kept }) => kept && !shown.data.has(id))) return location.assign(url.href);
    const live = open(fetched.payload, shown);
    if (move.history !== "none") window.history[move.history === "push" ? "pushState" : "replaceState"](null, "", href);
    commitPage({ path: url.pathname, search: url.search.slice(1), page: live.view, loadFailed: readiness === "failed" });
    if (move.scroll) scrollAfterCommit(url);
    await settleAll(live, fetched);
  }

  const go: Navigate = async (to, { replace = false, pop = false }) => {
    const target = new URL(to, location.href);
    if (target.origin !== location.origin) return location.assign(target.href);
    if (!pop && isCurrent(target) && target.hash) {
      history[replace ? "replaceState" : "pushState"](null, "", target.href);
      return scrollAfterCommit(target);
    }
    const controller = begin({ kind: "loading", to: target.href });
    try {
      const fetched = await fetchPageData(target, buildId, controller.signal, { keep: keptLevels(store.getState(), target, tree) });
      // A link to the page already showing fetches it again, without a second history entry.
      const history = replace || isCurrent(target) ? "replace" : "push";
      const move: Move = pop ? { history: "none", scroll: false } : { history, scroll: true };
      await show(fetched, target, move, controller.signal);
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error instanceof FullLoadNeeded) return location.assign(target.href);
      // Offline or reset: stay on the current page, whose URL has not changed, and offer a retry.
      commitPage({ ...store.getState(), pending: undefined, failedNavigation: { to: target.href, retry: () => void go(to, { replace, pop }) } });
    }
  };

  async function revalidate(): Promise<void> {
    const here = new URL(location.href);
    const controller = begin({ kind: "loading", to: here.href });
    try {
      await show(await fetchPageData(here, buildId, controller.signal), here, { history: "none", scroll: false }, controller.signal);
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error instanceof FullLoadNeeded) return location.reload();
      commitPage({ ...store.getState(), pending: undefined, failedNavigation: { to: here.href, retry: () => void revalidate() } });
    }
  }

  async function submit(submission: Submission): Promise<boolean> {
    const target = new URL(submission.action, location.href);
    if (target.origin !== location.origin) return (submission.fallback(), false);
    const controller = begin({ kind: "submitting", to: target.href });
    try {
      const answer = await fetchPageData(target, buildId, controller.signal, { body: submission.body });
      const succeeded = answer.status < 400;
      // The action's page, with its data and the loader's fresh data: a new entry only if it is another page.
      const here = isCurrent(target);
      await show(answer, target, { history: here ? "replace" : "push", scroll: !here }, controller.signal);
      return succeeded;
    } catch (error) {
      if (controller.signal.aborted) return false;
      settle();
      // Refused before the action ran (another build, a body the server would not read): the browser posts
      // the form itself, and the document it gets says why. An answer from elsewhere: the page, loaded whole.
      if (error instanceof FullLoadNeeded) {
        const status = error.status ?? 0;
        // A route without a page answered with what its action returned (JSON, say): the action did its
        // work, and the page shows what it changed.
        if (status >= 200 && status < 300) return (await revalidate(), true);
        if (status >= 400 && status < 500) submission.fallback();
        else location.assign(target.href);
        return false;
      }
      store.commit({ ...store.getState(), failedNavigation: { to: target.href, retry: () => void submit(submission) } });
      return false;
    }
  }

  /** The page shows a fetcher's outcome or error as a navigation would, its URL and history unchanged. */
  async function showInPlace(answer: FetchedPage, signal: AbortSignal): Promise<void> {
    const { path, search, page } = store.getState();
    let { payload } = answer;
    // A route fallback belongs to the routes it was rendered for: another route's page shows the app's.
    if (payload.route !== page.payload.route) payload = { ...payload, boundary: undefined, levels: [] };
    const readiness = await ready(new URL(location.href), payload, signal);
    if (readiness === "reloading" || signal.aborted) return;
    const live = open(payload, page);
    commitPage({ path, search, page: live.view, loadFailed: readiness === "failed" });
    await settleAll(live, answer);
  }

  /**
   * A fetcher's request. Its `done` goes with the page it leads to (a redirect's, the outcome's, the page's
   * loaders run again after an action) when there is one, else at once.
   */
  async function fetchFor(request: FetcherRequest): Promise<void> {
    const { href, body, fallback, signal } = request;
    let ended = false;
    const done = (answer: { data: unknown } | undefined) => {
      if (ended) return;
      ended = true;
      if (!signal.aborted) request.done(answer);
    };
    let waiting: (() => void) | undefined;
    const withPage = (answer: { data: unknown } | undefined) => void ending.push((waiting = () => done(answer)));
    const target = new URL(href, location.href);
    if (target.origin !== location.origin) return (done(undefined), fallback ? fallback() : location.assign(target.href));
    try {
      const answer = await fetchPageData(target, buildId, signal, { body });
      const { payload, status } = answer;
      if (payload.outcome?.kind === "redirect") {
        withPage(undefined);
        return await go(new URL(payload.outcome.location!, target).href, {});
      }
      if (payload.outcome || payload.error) {
        withPage(undefined);
        return await showInPlace(answer, signal);
      }
      // A form's action: its value, shown with the page's loaders run again (the page shows what it changed).
      if (body) {
        if (status >= 400) return done({ data: payload.actionData });
        withPage({ data: payload.actionData });
        return await revalidate();
      }
      const live = open(payload, store.getState().page);
      done({ data: live.view.data.get(payload.levels.at(-1)?.id ?? "") });
      await settleAll(live, answer);
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof FullLoadNeeded) {
        const status = error.status ?? 0;
        // A route without a page answered with what it returned (JSON, say): that is the fetcher's data.
        if (status >= 200 && status < 300 && error.response) {
          const data = await answerData(error.response);
          if (!body) return done({ data });
          withPage({ data });
          return await revalidate();
        }
        done(undefined);
        // Refused before the action ran (another build, a body the server would not read): the browser
        // posts the form itself, and the document it gets says why.
        if (body && fallback && status >= 400 && status < 500) fallback();
        else location.assign(target.href);
        return;
      }
      withPage(undefined);
      commitPage({ ...store.getState(), failedNavigation: { to: target.href, retry: () => void fetchFor(request) } });
    } finally {
      // Ended without waiting for a page (or it was shown): the fetcher is not left waiting.
      if (!waiting || !ending.includes(waiting)) done(undefined);
    }
  }

  return { go, submit, revalidate, fetch: fetchFor };
}

/** Settles the page's streamed values as their lines arrive; what never came fails once the stream ends. */
async function settleAll(live: LivePage, { settlements }: FetchedPage): Promise<void> {
  for await (const s of settlements) live.settle(s);
  live.end();
}

/** What a route without a page answered: its JSON, its text, or nothing. */
async function answerData(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  return response.headers.get("content-type")?.includes("json") ? response.json() : response.text();
}
