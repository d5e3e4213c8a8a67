// resolve-page.ts: matches a request to its routes and runs the action (for a form post) and the loaders of
// every matched level side by side, before a single byte is sent.
import { actionResult } from "../../runtime/action-data.ts";
import { openPage, splitDeferred } from "../../runtime/deferred.tsx";
import { Outcome, isOutcome, outcomeInfo } from "../../runtime/outcome.ts";
import { PAGE_DATA_VERSION, type DeferredSettlement, type PagePayload } from "../../runtime/page-payload.ts";
import type { ActionContext } from "../../runtime/route.ts";
import { actionLevel, type RouteMatch } from "../../runtime/route-tree.ts";
import { monitorStep } from "../monitoring/request-monitor.ts";
import { reportError, type Phase } from "../monitoring/request-record.ts";
import { afterPost, boundaryFor, failedPage, publicError } from "./failed-page.ts";
import type { PageDeps, PageRequest } from "./page-request.ts";
import { requestContext } from "./request-context.ts";
import { needsCodec } from "./wire.ts";

/** One shared outcome for every unmatched path: an Error captures a stack each time it is made. */
const UNMATCHED = new Outcome("not-found");

/** The parts of PageDeps the action and loader steps read. */
export type ResolveDeps = Pick<PageDeps, "match" | "assets" | "mode" | "capture" | "cookies" | "monitor">;

export interface ResolvedPage {
  status: number;
  payload: PagePayload;
  /** Each shown level's loader data as components read it, by route id: streamed values are promises. */
  data: Map<string, unknown>;
  settlements: Array<readonly [string, Promise<DeferredSettlement>]>;
  /** Headers the loaders and the action set, Set-Cookie included: on the response whatever it is. */
  headers: Array<[string, string]>;
  /** The matched routes, whose fallbacks a render that fails can still use. */
  match: RouteMatch | null;
  /** Its data needs the codec to reach the browser as it is (wire.ts); JSON carries it exactly otherwise. */
  rich: boolean;
}

/** Runs without letting a synchronous throw escape as one: every loader's failure is its promise's. */
const settle = async <T,>(run: () => T) => run();

/** A page before its loaders have run: its routes, none of their data. */
export function pageBefore(url: URL, match: RouteMatch | null, deps: Pick<ResolveDeps, "assets">): Omit<ResolvedPage, "status"> {
  return {
    payload: {
      v: PAGE_DATA_VERSION,
      buildId: deps.assets.manifest.buildId,
      path: url.pathname,
      search: url.search.slice(1),
      route: match?.pattern ?? null,
      levels: match?.levels.map(({ node }) => ({ id: node.id })) ?? [],
      assets: deps.assets.forMatch(match),
    },
    data: new Map(),
    settlements: [],
    headers: [],
    match,
    rich: false,
  };
}

/** What one level's loader gave: its data, its streamed values, and whether its data needs the codec (wire.ts). */
interface LevelLoad {
  ready: unknown;
  deferred: Map<string, PromiseLike<unknown>>;
  rich: boolean;
}

interface Loaded extends LevelLoad {
  id: string;
  kept: boolean;
}

const NOTHING: LevelLoad = { ready: null, deferred: new Map(), rich: false };

export async function resolvePage(request: PageRequest, deps: ResolveDeps): Promise<ResolvedPage> {
  const { url, record, submission, keep = 0 } = request;
  const match = request.match !== undefined ? request.match : deps.match(url.pathname);
  const before = pageBefore(url, match, deps);
  if (!match) return failedPage(before, UNMATCHED, undefined, record, deps, "match");
  record.route = match.pattern;
  const context = requestContext(request.request, url, deps.cookies, submission);

  /**
   * The loaders of the first `count` levels, side by side: a layout's loader and its page's cost the slower
   * of the two, not their sum. A loop, not map(): a loader's stack then holds no native frame between it
   * and the page's own code. The first `kept` levels are the client's already.
   */
  const load = async (count: number, kept: number) => {
    const running: Array<Promise<LevelLoad> | LevelLoad> = [];
    for (const [depth, { node, params }] of match.levels.slice(0, count).entries()) {
      const { loader } = node.route;
      if (depth < kept || !loader) running.push(NOTHING);
      else running.push(monitorStep(deps.monitor, "loader", node.id, () => settle(() => loader(context.ctx(params)))).then((value) => loaded(node.id, value)));
    }
    return Promise.allSettled(running);
  };
  /** A loader's value, split and checked: what cannot be sent fails here, as the loader's own error. */
  const loaded = (id: string, value: unknown): LevelLoad => {
    const { ready, deferred } = splitDeferred(value);
    return { ready, deferred, rich: needsCodec(ready, `the data of route ${id}`) };
  };
  /** The page with the levels loaded so far: their data and streamed values, the rest as ids. */
  const pageWith = (loaded: Loaded[]): Omit<ResolvedPage, "status"> => {
    const shown = loaded.filter((level) => !level.kept);
    // Components read the same settlements the client will, so both sides throw the same thing.
    const { data, settlements, settle: settleValue } = openPage(shown.map(({ id, ready, deferred }) => ({ id, ready, deferred: [...deferred.keys()] })));
    for (const { id, deferred } of shown) streamInto(id, deferred, settleValue);
    const rich = shown.some((level) => level.rich);
    const levels = before.payload.levels.map(({ id }, depth) => {
      const level = loaded[depth];
      if (!level) return { id };
      if (level.kept) return { id, kept: true as const };
      return level.deferred.size ? { id, data: level.ready, deferred: [...level.deferred.keys()] } : { id, data: level.ready };
    });
    return { ...before, payload: { ...before.payload, levels }, data, settlements, headers: context.responseHeaders(), rich };
  };
  const streamInto = (route: string, deferred: Loaded["deferred"], settleValue: (s: DeferredSettlement) => void) => {
    for (const [key, promise] of deferred) {
      Promise.resolve(promise)
        .then((value) => (needsCodec(value, `the streamed value ${key} of route ${route}`), value))
        .then(
          (value): DeferredSettlement => ({ route, key, value }),
          (error: unknown): DeferredSettlement => {
            if (isOutcome(error)) return { route, key, outcome: outcomeInfo(error) };
            // A loader whose visitor left fails with the abort reason: that is no error of ours.
            if (request.request.signal.aborted) return { route, key, error: { digest: "aborted", side: "server" } };
            return { route, key, error: publicError(error, reportError(record, error, "deferred", deps.capture), deps.mode) };
          },
        )
        .then(settleValue);
    }
  };
  const loadedOf = (results: PromiseSettledResult<LevelLoad>[], kept: number): Loaded[] =>
    results.map((result, depth) => ({ id: match.levels[depth]!.node.id, kept: depth < kept, ...(result as PromiseFulfilledResult<LevelLoad>).value }));
  /**
   * Ends the page at level `at`: the levels above its fallback are shown, so their loaders must have run
   * (after a failed action they run now); if one of them fails too, the app's page shows the first failure.
   */
  const failAt = async (error: unknown, at: number, phase: Phase, results?: PromiseSettledResult<LevelLoad>[], kept = 0) => {
    const above = boundaryFor(match, at, error)?.depth ?? 0;
    const loaded = results ? results.slice(0, above) : await load(above, 0);
    if (loaded.some((result) => result.status === "rejected")) {
      for (const result of loaded) if (result.status === "rejected") reportError(record, result.reason, "loader", deps.capture);
      return failedPage({ ...before, headers: context.responseHeaders() }, error, undefined, record, deps, phase);
    }
    return failedPage(pageWith(loadedOf(loaded, kept)), error, at, record, deps, phase);
  };

  let action: { value: unknown; status: number; rich?: boolean } | undefined;
  const acting = submission ? actionLevel(match) : undefined;
  if (acting) {
    try {
      const run = acting.node.route.action!;
      action = actionResult(await monitorStep(deps.monitor, "action", acting.node.id, () => run(context.ctx(acting.params) as ActionContext)));
      // What the action returned goes to the page as it is, or fails as the action's own error.
      action.rich = needsCodec(action.value, `the action data of route ${acting.node.id}`);
    } catch (error) {
      return failAt(afterPost(error), match.levels.indexOf(acting), "action");
    }
  }
  // After an action every level runs again: the page shows what the action changed.
  const kept = submission ? 0 : Math.min(keep, match.levels.length - 1);
  const results = await load(match.levels.length, kept);
  const failure = results.findIndex((result) => result.status === "rejected");
  if (failure >= 0) {
    // The outermost failure is the page's; an error further in is still a failure of its own, reported.
    results.forEach((result, depth) => {
      if (depth > failure && result.status === "rejected" && !isOutcome(result.reason)) reportError(record, result.reason, "loader", deps.capture);
    });
    return failAt((results[failure] as PromiseRejectedResult).reason, failure, "loader", results, kept);
  }
  const page = pageWith(loadedOf(results, kept));
  if (action) {
    page.payload.actionData = action.value;
    page.rich ||= action.rich === true;
  }
  return { status: action?.status ?? 200, ...page };
}
