// Outlet.tsx: renders the matched routes one inside the other: each level's component with its own loader
// data, its child where it puts <Outlet />, and a route's fallback where the page failed.
import { useContext, type ReactNode } from "react";
import { isServerRender, useAppRuntime, type AppRuntime } from "./app-context.ts";
import { LevelContext } from "./loader-data.tsx";
import { useNavigation, useNavState, type PageView } from "./navigation.ts";
import { OutcomePage } from "./OutcomePage.tsx";
import { PageBoundary } from "./PageBoundary.tsx";
import type { Boundary } from "./page-payload.ts";
import type { RouteTree, RouteNode } from "./route-tree.ts";

interface ShownLevel {
  node: RouteNode;
  /**
   * React's key for the level: a layout stays mounted, its state kept, while its route and params do; the
   * innermost level is new for every path and search, as a page is.
   */
  key: string;
}

const shownLevels = new WeakMap<PageView, ShownLevel[]>();

/** The page's levels, worked out once per page view. */
function shownLevelsOf(page: PageView, tree: RouteTree): ShownLevel[] {
  let levels = shownLevels.get(page);
  if (!levels) shownLevels.set(page, (levels = levelsOf(page, tree)));
  return levels;
}

function levelsOf({ payload }: PageView, tree: RouteTree): ShownLevel[] {
  const params = tree.match(payload.path)?.levels;
  return payload.levels.flatMap(({ id }, depth) => {
    const node = tree.byId.get(id);
    if (!node) return [];
    const last = depth === payload.levels.length - 1;
    const own = last ? `${payload.path}?${payload.search}` : JSON.stringify(params?.[depth]?.params ?? {});
    return [{ node, key: `${id}|${own}` }];
  });
}

/** The fallback of the route the page failed in, where that route's boundary put it. */
function RouteFallback({ boundary }: { boundary: Boundary }) {
  const nav = useNavigation();
  const { tree, app } = useAppRuntime();
  const { error, outcome } = useNavState().page.payload;
  const fallbacks = tree.byId.get(boundary.id)?.route.fallbacks;
  if (error) {
    const ErrorPage = fallbacks?.error ?? app.fallbacks.error;
    return <ErrorPage {...error} host={nav.host} />;
  }
  if (outcome && outcome.kind !== "redirect")
    return <OutcomePage kind={outcome.kind} fallback={fallbacks?.[outcome.kind]} />;
  return null;
}

/**
 * One route of the page, or the fallback standing in for it and the levels below, keyed by the level: an element
 * its parent (the page, a layout's <Outlet />) makes, not a component of its own, one less for every level.
 */
export function levelElement(runtime: AppRuntime, page: PageView, depth: number): ReactNode {
  const levels = shownLevelsOf(page, runtime.tree);
  const level = levels[depth];
  const key = level?.key ?? "fallback";
  // Told as the level's element is made: it renders next, and nothing else renders between.
  runtime.onLevel?.(depth);
  const { boundary } = page.payload;
  if (boundary?.depth === depth) return <RouteFallback key={key} boundary={boundary} />;
  if (!level) return null;
  const { route, id } = level.node;
  const Component = route.component ?? Outlet;
  const content = (
    <LevelContext key={key} value={{ depth, data: page.data.get(id) }}>
      <Component />
    </LevelContext>
  );
  if (!route.fallbacks || isServerRender(runtime)) return content;
  return (
    <PageBoundary key={key} fallbacks={route.fallbacks}>
      {content}
    </PageBoundary>
  );
}

/** Where a layout renders its matched child: nothing when the layout itself is the page. */
export function Outlet() {
  const parent = useContext(LevelContext);
  if (!parent) throw new Error("Brisk: <Outlet /> renders only inside a route's component");
  const runtime = useAppRuntime();
  const { page } = useNavState();
  const levels = shownLevelsOf(page, runtime.tree);
  const { boundary } = page.payload;
  const depth = parent.depth + 1;
  if (depth >= levels.length && boundary?.depth !== depth) return null;
  const fallbacks = isServerRender(runtime) ? undefined : levels[parent.depth]?.node.route.fallbacks;
  const child = levelElement(runtime, page, depth);
  // The layout's own fallbacks catch what its child throws in the browser, inside the layout.
  return fallbacks ? (
    <PageBoundary key={levels[depth]?.key ?? "fallback"} fallbacks={fallbacks}>
      {child}
    </PageBoundary>
  ) : (
    child
  );
}
