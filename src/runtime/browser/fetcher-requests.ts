// fetcher-requests.ts: a fetcher's request on the client: a post to a route's action or a load of a route's
// data, the page staying where it is. An action's response is followed by the page loaded again as after any
// action (a redirect's page, or this one); an outcome or an error shows as a navigation would.
import type { FetcherRequest } from "../navigation.ts";
import { KEEP_ALL } from "../page-payload.ts";
import { go, revalidate } from "./moves.ts";
import { commitPage, isCurrent, ready, settleAll, type NavigatorState } from "./navigator-state.ts";
import { fetchPageData, NotPageData, type FetchedPage } from "./page-data-client.ts";
import { clearPrefetched } from "./prefetch.ts";
import { submittedForm } from "./submit.ts";

/** The page shows a fetcher's outcome or error as a navigation would, its URL and history unchanged. */
async function showInPlace(n: NavigatorState, fetched: FetchedPage, signal: AbortSignal): Promise<void> {
  const { path, search, page, revalidated } = n.store.getState();
  let { payload } = fetched;
  // A route fallback belongs to the routes it was rendered for: another route's page shows the app's.
  if (payload.route !== page.payload.route) payload = { ...payload, boundary: undefined, levels: [] };
  const readiness = await ready(n, new URL(location.href), payload, signal);
  if (readiness === "reloading" || signal.aborted) return;
  const live = n.open(payload, page);
  commitPage(n, { path, search, page: live.view, loadFailed: readiness === "failed", revalidated });
  await settleAll(live, fetched);
}

/** What a route without a page answered: its JSON, its text, or nothing. */
async function resourceData(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  return response.headers.get("content-type")?.includes("json") ? response.json() : response.text();
}

/**
 * A fetcher's request. Its `done` goes with the page it leads to (a redirect's, the outcome's, the page's
 * loaders run again after an action) when there is one, else at once. True once the page shows a success
 * (below 400, or a redirect's page), for a fetcher's form to start empty again as a <Form> does.
 */
export async function fetchFor(n: NavigatorState, request: FetcherRequest): Promise<boolean> {
  const { href, body, fallback, signal } = request;
  let ended = false;
  const done = (result: { data: unknown } | undefined) => {
    if (ended) return;
    ended = true;
    if (!signal.aborted) request.done(result);
  };
  let waiting: (() => void) | undefined;
  const withPage = (result: { data: unknown } | undefined) => void n.ending.push((waiting = () => done(result)));
  const target = new URL(href, location.href);
  if (target.origin !== location.origin)
    return (done(undefined), fallback ? fallback() : location.assign(target.href), false);
  const form = body ? submittedForm("POST", target, body, request.formData ?? new FormData()) : undefined;
  // An action may change what was loaded ahead.
  if (body) clearPrefetched(n);
  const here = isCurrent(target);
  // Posted from another page, a page's levels are never shown: its loaders need not run after the action.
  const elsewhere = form && !here && n.tree.match(target.pathname)?.levels.at(-1)?.node.route.component !== undefined;
  try {
    const fetched = await fetchPageData(target, n.buildId, signal, { body, keep: elsewhere ? KEEP_ALL : undefined });
    const { payload, status } = fetched;
    if (payload.outcome?.kind === "redirect") {
      withPage(undefined);
      await go(n, new URL(payload.outcome.location!, target).href, form ? { cause: { kind: "action", form } } : {});
      return true;
    }
    if (payload.outcome || payload.error) {
      withPage(undefined);
      await showInPlace(n, fetched, signal);
      return false;
    }
    // A form's action: its value, shown with the page's loaders run again (the page shows what it changed).
    // Posted to the page showing, the response holds them.
    if (form) {
      withPage({ data: payload.actionData });
      await revalidate(n, { kind: "action", form, status, result: payload.actionData }, here ? fetched : undefined);
      return status < 400;
    }
    const live = n.open(payload, n.store.getState().page);
    done({ data: live.view.data.get(payload.levels.at(-1)?.id ?? "") });
    await settleAll(live, fetched);
    return true;
  } catch (error) {
    if (signal.aborted) return false;
    if (error instanceof NotPageData) {
      const status = error.status ?? 0;
      // A route without a page answered with what it returned (JSON, say): that is the fetcher's data.
      if (status >= 200 && status < 300 && error.response) {
        const data = await resourceData(error.response);
        if (!form) return (done({ data }), true);
        withPage({ data });
        await revalidate(n, { kind: "action", form, status, result: data });
        return true;
      }
      done(undefined);
      // Refused before the action ran (another build, a body the server would not read): the browser
      // posts the form itself, and the document it gets says why.
      if (body && fallback && status >= 400 && status < 500) fallback();
      else location.assign(target.href);
      return false;
    }
    withPage(undefined);
    commitPage(n, {
      ...n.store.getState(),
      failedNavigation: { to: target.href, retry: () => void fetchFor(n, request) },
    });
    return false;
  } finally {
    // Ended without waiting for a page (or it was shown): the fetcher is not left waiting.
    if (!waiting || !n.ending.includes(waiting)) done(undefined);
  }
}
