// typed-route.ts: route(pattern, options) declares a route of the table whose loader and action are checked
// against the params its pattern gives, its children's against their full pattern.
import type { JoinPattern, PathParams } from "./path-params.ts";
import type { Middleware } from "./route.ts";
import type { ActionContext, LoaderContext, RouteDefinition } from "./route.ts";

/** A route's definition without its path, its loader and action typed for the params of `Pattern`. */
export type RouteOptions<Pattern extends string> = Omit<RouteDefinition, "path" | "index" | "loader" | "action" | "middleware" | "children"> & {
  middleware?: readonly Middleware<PathParams<Pattern>>[];
  // Properties, not methods: a loader that asks for a param the pattern does not give fails the check.
  loader?: (ctx: LoaderContext<PathParams<Pattern>>) => unknown;
  action?: (ctx: ActionContext<PathParams<Pattern>>) => unknown;
  /**
   * The routes inside this one's `<Outlet />`: a list, or a function given `child`, which declares them with
   * this route's params as well as their own (`child("items/:id", …)`, `child.index(…)`).
   */
  children?: readonly RouteDefinition[] | ((child: ChildRoute<Pattern>) => readonly RouteDefinition[]);
};

/** Declares the children of the route at `Parent`, their params typed from the full pattern. */
export interface ChildRoute<Parent extends string> {
  <Path extends string>(path: Path, options: RouteOptions<JoinPattern<Parent, Path>>): RouteDefinition;
  /** The child that answers the parent's own path. */
  index(options: Omit<RouteOptions<Parent>, "children">): RouteDefinition;
}

/**
 * A route of the table: `route("/u/:name", { component, loader })` checks that the loader asks for no param
 * but `name`. A child's path is relative to its parent's (or absolute under it) as in any route table.
 */
export function route<Pattern extends string>(path: Pattern, options: RouteOptions<Pattern>): RouteDefinition {
  const { children, ...rest } = options;
  if (children === undefined) return { ...rest, path };
  return { ...rest, path, children: typeof children === "function" ? children(child as ChildRoute<Pattern>) : children };
}

// One `child` for every parent: the parent's pattern matters to the types only (the table joins the paths when
// it is compiled), so the cast forgets what no value here depends on.
const child = Object.assign((path: string, options: RouteOptions<string>) => route(path, options), {
  index: (options: Omit<RouteOptions<string>, "children">): RouteDefinition => ({ ...options, index: true }),
}) as unknown as ChildRoute<string>;
