// resolve-page.ts: matches a request to its routes and runs the action (for a form post) and the loaders of
// every matched level side by side, before a single byte is sent.
import { actionResult } from "../../runtime/action-data.ts";
import { openPage, splitDeferred } from "../../runtime/deferred.tsx";
import { Outcome, isOutcome, outcomeInfo } from "../../runtime/outcome.ts";
import { PAGE_DATA_VERSION, type DeferredSettlement, type LevelPayload } from "../../runtime/page-payload.ts";
import type { ActionContext } from "../../runtime/route.ts";
import { actionLevel, type MatchedLevel, type RouteMatch } from "../../runtime/route-tree.ts";
import { monitorStep } from "../request/monitor.ts";
import { reportError, type Phase } from "../request/context.ts";
import { afterMethod, afterPost, boundaryFor, failedPage, publicError } from "./failed-page.ts";
import type { PageRequest, ResolveDeps, ResolvedPage } from "./page-request.ts";
import { pageScope, type PageScope } from "./page-scope.ts";
import { needsCodec } from "./wire.ts";
import { refusedSearch } from "./search-schema.ts";

/** One shared outcome for every unmatched path: an Error captures a stack each time it is made. */
const UNMATCHED = new Outcome("not-found");

/** A page before its loaders have run: its routes, none of their data. */
export function pageBefore(
  url: URL,
  match: RouteMatch | null,
  deps: Pick<ResolveDeps, "assets">,
): Omit<ResolvedPage, "status"> {
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

/** One page being resolved: what every step below reads. Module functions, not closures made per request. */
interface Resolution {
  page: PageRequest;
  deps: ResolveDeps;
  match: RouteMatch;
  before: Omit<ResolvedPage, "status">;
  scope: PageScope;
}

/**
 * One level's loader, its value split and checked: what cannot be sent fails here, as the loader's own error.
 * An async function, so a loader that throws at once fails as its promise, like one that rejects.
 */
async function runLoader({ deps, scope }: Resolution, { node, params }: MatchedLevel): Promise<LevelLoad> {
  const loader = node.route.loader!;
  const value = await monitorStep(deps.monitor, "loader", node.id, () =>
    loader(scope.argsFor(params, node.route.search)),
  );
  const { ready, deferred } = splitDeferred(value);
  return { ready, deferred, rich: needsCodec(ready, `the data of route ${node.id}`) };
}

/**
 * The loaders of the first `count` levels, side by side: a layout's loader and its page's cost the slower of
 * the two, not their sum. The first `kept` levels are the client's already.
 */
function load(resolution: Resolution, count: number, kept: number): Promise<PromiseSettledResult<LevelLoad>[]> {
  const running: Array<Promise<LevelLoad> | LevelLoad> = [];
  for (let depth = 0; depth < count; depth++) {
    const level = resolution.match.levels[depth]!;
    running.push(depth < kept || !level.node.route.loader ? NOTHING : runLoader(resolution, level));
  }
  return Promise.allSettled(running);
}

function loadedOf({ match }: Resolution, results: PromiseSettledResult<LevelLoad>[], kept: number): Loaded[] {
  return results.map((result, depth) => ({
    id: match.levels[depth]!.node.id,
    kept: depth < kept,
    ...(result as PromiseFulfilledResult<LevelLoad>).value,
  }));
}

/** Each streamed value of a level, settled as its promise does: checked for the wire, an error with a digest. */
function streamInto(
  { page, deps }: Resolution,
  route: string,
  deferred: Map<string, PromiseLike<unknown>>,
  settle: (s: DeferredSettlement) => void,
) {
  for (const [key, promise] of deferred) {
    Promise.resolve(promise)
      .then((value) => (needsCodec(value, `the streamed value ${key} of route ${route}`), value))
      .then(
        (value): DeferredSettlement => ({ route, key, value }),
        (error: unknown): DeferredSettlement => {
          if (isOutcome(error)) return { route, key, outcome: outcomeInfo(error) };
          // A loader whose visitor left fails with the abort reason: that is no error of ours.
          if (page.request.signal.aborted) return { route, key, error: { digest: "aborted", side: "server" } };
          return {
            route,
            key,
            error: publicError(error, reportError(page.context, error, "deferred", deps.capture), deps.mode),
          };
        },
      )
      .then(settle);
  }
}

/** The page with the levels loaded so far: their data and streamed values, the rest as ids. */
function pageWith(resolution: Resolution, loaded: Loaded[]): Omit<ResolvedPage, "status"> {
  const { match, before, scope } = resolution;
  const shown = loaded.filter((level) => !level.kept);
  // Components read the same settlements the client will, so both sides throw the same thing.
  const { data, settlements, settle } = openPage(
    shown.map(({ id, ready, deferred }) => ({ id, ready, deferred: [...deferred.keys()] })),
  );
  for (const { id, deferred } of shown) streamInto(resolution, id, deferred, settle);
  const levels = before.payload.levels.map(({ id }, depth) => {
    const level = loaded[depth];
    if (!level) return { id };
    const payload: LevelPayload = level.kept ? { id, kept: true } : { id, data: level.ready };
    if (!level.kept && level.deferred.size) payload.deferred = [...level.deferred.keys()];
    // A kept level's search may have changed: the client reads its parse from here, whatever data it keeps.
    const search = match.levels[depth]!.node.route.search;
    const parsed = search && scope.parsed(search);
    if (parsed && "query" in parsed) payload.query = parsed.query;
    return payload;
  });
  const rich = shown.some((level) => level.rich);
  return {
    ...before,
    payload: { ...before.payload, levels },
    data,
    settlements,
    headers: scope.responseHeaders(),
    rich,
  };
}

/**
 * Ends the page at level `at`: the levels above its fallback are shown, so their loaders must have run
 * (after a failed action they run now); if one of them fails too, the app's page shows the first failure.
 */
async function failAt(
  resolution: Resolution,
  error: unknown,
  at: number,
  phase: Phase,
  results?: PromiseSettledResult<LevelLoad>[],
  kept = 0,
) {
  const { page, deps, match, before, scope } = resolution;
  const above = boundaryFor(match, at, error)?.depth ?? 0;
  // No level above the failure shows (a redirect, the app's page, the outermost route's own fallback): no
  // loader to run, no level to fill. The redirect after a form post ends here.
  if (above === 0)
    return failedPage({ ...before, headers: scope.responseHeaders() }, error, at, page.context, deps, phase);
  const loaded = results ? results.slice(0, above) : await load(resolution, above, 0);
  if (loaded.some((result) => result.status === "rejected")) {
    for (const result of loaded)
      if (result.status === "rejected") reportError(page.context, result.reason, "loader", deps.capture);
    return failedPage({ ...before, headers: scope.responseHeaders() }, error, undefined, page.context, deps, phase);
  }
  return failedPage(pageWith(resolution, loadedOf(resolution, loaded, kept)), error, at, page.context, deps, phase);
}

export async function resolvePage(page: PageRequest, deps: ResolveDeps): Promise<ResolvedPage> {
  const { url, context, submission, keep = 0 } = page;
  const match = page.match !== undefined ? page.match : deps.match(url.pathname);
  const before = pageBefore(url, match, deps);
  if (!match) return failedPage(before, UNMATCHED, undefined, context, deps, "match");
  context.route = match.pattern;
  const scope = page.scope ?? pageScope(context, page.request, url, deps.cookies, submission);
  const resolution: Resolution = { page, deps, match, before, scope };
  // A middleware refused the request: nothing at or below its level runs, the levels above show its fallback.
  if (page.failure)
    return failAt(resolution, afterMethod(page.request, page.failure.error), page.failure.depth, "middleware");
  // Nothing matches below the layouts that match the path's beginning: not found, inside them.
  if (match.missing) return failAt(resolution, UNMATCHED, match.levels.length, "match");
  const refused = refusedSearch(match, scope);
  if (refused) return failAt(resolution, refused.error, refused.depth, "match");

  let action: { value: unknown; status: number; rich?: boolean } | undefined;
  const acting = submission ? actionLevel(match) : undefined;
  if (acting) {
    try {
      const run = acting.node.route.action!;
      action = actionResult(
        await monitorStep(deps.monitor, "action", acting.node.id, () =>
          run(scope.argsFor(acting.params, acting.node.route.search) as ActionContext),
        ),
      );
      // What the action returned goes to the page as it is, or fails as the action's own error.
      action.rich = needsCodec(action.value, `the action data of route ${acting.node.id}`);
    } catch (error) {
      return failAt(resolution, afterPost(error), match.levels.indexOf(acting), "action");
    }
  }
  // After an action every level runs again: the page shows what the action changed. Unless the post came from
  // another page (a fetcher's), which shows none of them; a navigation always shows its innermost level.
  const kept = submission ? (keep === Infinity ? match.levels.length : 0) : Math.min(keep, match.levels.length - 1);
  const results = await load(resolution, match.levels.length, kept);
  const failure = results.findIndex((result) => result.status === "rejected");
  if (failure >= 0) {
    // The outermost failure is the page's; an error further in is still a failure of its own, reported.
    results.forEach((result, depth) => {
      if (depth > failure && result.status === "rejected" && !isOutcome(result.reason))
        reportError(context, result.reason, "loader", deps.capture);
    });
    return failAt(resolution, (results[failure] as PromiseRejectedResult).reason, failure, "loader", results, kept);
  }
  const resolved = pageWith(resolution, loadedOf(resolution, results, kept));
  if (action) {
    resolved.payload.actionData = action.value;
    resolved.rich ||= action.rich === true;
  }
  return { status: action?.status ?? 200, ...resolved };
}
