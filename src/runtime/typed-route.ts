// typed-route.ts: route(pattern, options) declares a route of the table whose loader and action are checked
// against the params its pattern gives, its children's against their full pattern.
import type { Static, TObject } from "@sinclair/typebox";
import type { JoinPattern, PathParams } from "./path-params.ts";
import type { Middleware, NoQuery } from "./route.ts";
import type { ActionContext, LoaderContext, RouteDefinition } from "./route.ts";

/** What a route's `search` schema parses the search into: `Static` of it, nothing without one. */
type QueryOf<Search extends TObject | undefined> = Search extends TObject ? Static<Search> : NoQuery;

/** A loader of the route at `Pattern`, given the parse of its `search` schema. */
type LoaderOf<Pattern extends string, Search extends TObject | undefined = undefined> = (
  ctx: LoaderContext<PathParams<Pattern>, QueryOf<Search>>,
) => unknown;

/**
 * A route's definition without its path, its loader, action and middleware typed for the params of `Pattern`
 * and the parse of its `search` schema (declare `search` before them: TypeScript reads it first then).
 */
export type RouteOptions<
  Pattern extends string,
  // The default takes any parse: a default cannot name Search, declared after it (so `RouteOptions<P, L>` still reads).
  Loader extends LoaderOf<Pattern, Search> | undefined = (ctx: LoaderContext<PathParams<Pattern>, object>) => unknown,
  Search extends TObject | undefined = undefined,
> = Omit<RouteDefinition, "path" | "index" | "loader" | "action" | "middleware" | "children" | "search"> & {
  search?: Search;
  middleware?: readonly Middleware<PathParams<Pattern>, QueryOf<Search>>[];
  // Properties, not methods: a loader that asks for a param the pattern does not give fails the check.
  loader?: Loader;
  action?: (ctx: ActionContext<PathParams<Pattern>, QueryOf<Search>>) => unknown;
  /**
   * The routes inside this one's `<Outlet />`: a list, or a function given `child`, which declares them with
   * this route's params as well as their own (`child("items/:id", …)`, `child.index(…)`).
   */
  children?: readonly RouteDefinition[] | ((child: ChildRoute<Pattern>) => readonly RouteDefinition[]);
};

/** Declares the children of the route at `Parent`, their params typed from the full pattern. */
export interface ChildRoute<Parent extends string> {
  <
    Path extends string,
    Loader extends LoaderOf<JoinPattern<Parent, Path>, Search> | undefined,
    Search extends TObject | undefined = undefined,
  >(
    path: Path,
    options: RouteOptions<JoinPattern<Parent, Path>, Loader, Search>,
  ): TypedRoute<Loader, QueryOf<Search>>;
  /** The child that answers the parent's own path. */
  index<Loader extends LoaderOf<Parent, Search> | undefined, Search extends TObject | undefined = undefined>(
    options: Omit<RouteOptions<Parent, Loader, Search>, "children">,
  ): TypedRoute<Loader, QueryOf<Search>>;
}

/** The type of a route's loader, carried by the route object `route()` returns, for `useRouteData(route)`. */
declare const loaderOfRoute: unique symbol;
/** The type of the parse of a route's `search` schema, carried likewise, for `useRouteSearch(route)`. */
declare const queryOfRoute: unique symbol;

/**
 * A route as `route()` declares it: a RouteDefinition that knows its loader's type and its search's parse. The
 * symbols are a type's alone (no object holds them): a plain RouteDefinition lacks them, and reads as `unknown`
 * data and an untyped search.
 */
export type TypedRoute<Loader, Query = unknown> = RouteDefinition & {
  readonly [loaderOfRoute]: Loader;
  readonly [queryOfRoute]: Query;
};

/** The data of a route's loader, as its components read it: what `useRouteData(route)` gives. */
export type RouteData<Route> =
  Route extends TypedRoute<infer Loader>
    ? Loader extends (ctx: never) => infer Data
      ? Awaited<Data>
      : undefined
    : unknown;

/** The search of a route as its `search` schema parses it: what `useRouteSearch(route)` gives. */
export type RouteQuery<Route> = Route extends { readonly [queryOfRoute]: infer Query }
  ? Query
  : Record<string, unknown>;

/**
 * A route of the table: `route("/u/:name", { component, loader })` checks that the loader asks for no param
 * but `name`. A child's path is relative to its parent's (or absolute under it) as in any route table.
 */
// No default for Loader: an inline loader takes its params' type from the constraint, as it would without a generic.
export function route<
  Pattern extends string,
  Loader extends LoaderOf<Pattern, Search> | undefined,
  Search extends TObject | undefined = undefined,
>(path: Pattern, options: RouteOptions<Pattern, Loader, Search>): TypedRoute<Loader, QueryOf<Search>> {
  const { children, ...rest } = options;
  const declared: RouteDefinition =
    children === undefined
      ? { ...rest, path }
      : { ...rest, path, children: typeof children === "function" ? children(child as ChildRoute<Pattern>) : children };
  return declared as TypedRoute<Loader, QueryOf<Search>>;
}

// One `child` for every parent: the parent's pattern matters to the types only (the table joins the paths when
// it is compiled), so the cast forgets what no value here depends on.
const child = Object.assign((path: string, options: RouteOptions<string>) => route(path, options), {
  index: (options: Omit<RouteOptions<string>, "children">): RouteDefinition => ({ ...options, index: true }),
}) as unknown as ChildRoute<string>;
