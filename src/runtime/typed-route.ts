// typed-route.ts: route(pattern, options) declares a route of the table whose loader and action are checked
// against the params its pattern gives, its children's against their full pattern.
import type { JoinPattern, PathParams } from "./path-params.ts";
import type { Middleware } from "./route.ts";
import type { ActionContext, LoaderContext, RouteDefinition } from "./route.ts";

/** A loader of the route at `Pattern`. */
type LoaderOf<Pattern extends string> = (ctx: LoaderContext<PathParams<Pattern>>) => unknown;

/** A route's definition without its path, its loader and action typed for the params of `Pattern`. */
export type RouteOptions<Pattern extends string, Loader extends LoaderOf<Pattern> | undefined = LoaderOf<Pattern>> = Omit<
  RouteDefinition,
  "path" | "index" | "loader" | "action" | "middleware" | "children"
> & {
  middleware?: readonly Middleware<PathParams<Pattern>>[];
  // Properties, not methods: a loader that asks for a param the pattern does not give fails the check.
  loader?: Loader;
  action?: (ctx: ActionContext<PathParams<Pattern>>) => unknown;
  /**
   * The routes inside this one's `<Outlet />`: a list, or a function given `child`, which declares them with
   * this route's params as well as their own (`child("items/:id", …)`, `child.index(…)`).
   */
  children?: readonly RouteDefinition[] | ((child: ChildRoute<Pattern>) => readonly RouteDefinition[]);
};

/** Declares the children of the route at `Parent`, their params typed from the full pattern. */
export interface ChildRoute<Parent extends string> {
  <Path extends string, Loader extends LoaderOf<JoinPattern<Parent, Path>> | undefined>(
    path: Path,
    options: RouteOptions<JoinPattern<Parent, Path>, Loader>,
  ): TypedRoute<Loader>;
  /** The child that answers the parent's own path. */
  index<Loader extends LoaderOf<Parent> | undefined>(options: Omit<RouteOptions<Parent, Loader>, "children">): TypedRoute<Loader>;
}

/**
 * A route of the table: `route("/u/:name", { component, loader })` checks that the loader asks for no param
 * but `name`. A child's path is relative to its parent's (or absolute under it) as in any route table.
 */
/** The type of a route's loader, carried by the route object `route()` returns, for `useRouteData(route)`. */
declare const loaderOfRoute: unique symbol;

/**
 * A route as `route()` declares it: a RouteDefinition that knows its loader's type. The symbol is a type's alone
 * (no object holds it): a plain RouteDefinition lacks it, and reads as `unknown` data.
 */
export type TypedRoute<Loader> = RouteDefinition & { readonly [loaderOfRoute]: Loader };

/** The data of a route's loader, as its components read it: what `useRouteData(route)` gives. */
export type RouteData<Route> = Route extends TypedRoute<infer Loader> ? (Loader extends (ctx: never) => infer Data ? Awaited<Data> : undefined) : unknown;

// No default for Loader: an inline loader takes its params' type from the constraint, as it would without a generic.
export function route<Pattern extends string, Loader extends LoaderOf<Pattern> | undefined>(
  path: Pattern,
  options: RouteOptions<Pattern, Loader>,
): TypedRoute<Loader> {
  const { children, ...rest } = options;
  const declared: RouteDefinition =
    children === undefined ? { ...rest, path } : { ...rest, path, children: typeof children === "function" ? children(child as ChildRoute<Pattern>) : children };
  return declared as TypedRoute<Loader>;
}

// One `child` for every parent: the parent's pattern matters to the types only (the table joins the paths when
// it is compiled), so the cast forgets what no value here depends on.
const child = Object.assign((path: string, options: RouteOptions<string>) => route(path, options), {
  index: (options: Omit<RouteOptions<string>, "children">): RouteDefinition => ({ ...options, index: true }),
}) as unknown as ChildRoute<string>;
