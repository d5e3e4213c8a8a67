// route-search.ts: useRouteSearch(route): a route's search as its `search` schema parsed it on the server (the
// browser never parses: it reads the page's payload), and the URLs and navigations that change some of its fields.
// In a folder whose package.json says it has no side effects, as api-client/ is: index.ts says why.
import { useLevelOf } from "../loader-data.tsx";
import { useNavigation, useNavState, type NavigateOptions } from "../navigation.ts";
import type { RouteDefinition } from "../route.ts";
import type { SafePath } from "../route-paths.ts";
import type { RouteQuery } from "../typed-route.ts";

/** The fields to change, each to a value or to `undefined`, which removes its key (its default applies again). */
export type QueryChange<Query> = { [Key in keyof Query]?: Query[Key] | undefined };

/** Navigates to the page's path with the fields of `next` changed: a new history entry, or with `replace` none. */
export type SetQuery<Query> = (next: QueryChange<Query>, options?: NavigateOptions) => void;

/** The page's path and search with the fields of `next` changed: the `to` of a `<Link>`. */
export type SearchHref<Query> = (next: QueryChange<Query>) => SafePath;

/**
 * `path?search` with each key of `next` written again, after the others: a number or boolean as `String()` writes
 * it, an array as the key repeated, `undefined` not at all. Every other parameter stays as it was.
 */
function withSearch(path: string, search: string, next: Record<string, unknown>): SafePath {
  const params = new URLSearchParams(search);
  for (const key of Object.keys(next)) {
    params.delete(key);
    for (const value of [next[key]].flat()) if (value !== undefined) params.append(key, String(value));
  }
  const query = params.toString();
  return (query ? `${path}?${query}` : path) as SafePath;
}

/**
 * The search of `route` (a route of the page, from `route()` with a `search` schema) as the server parsed it,
 * typed by the schema; `setQuery` to move to it with some fields changed, and `searchHref` for a link there. A
 * field set to its default stays in the URL: `undefined` takes it out.
 */
export function useRouteSearch<Route extends RouteDefinition>(
  route: Route,
): [query: RouteQuery<Route>, setQuery: SetQuery<RouteQuery<Route>>, searchHref: SearchHref<RouteQuery<Route>>] {
  const level = useLevelOf(route, "useRouteSearch");
  const { path, search } = useNavState();
  const nav = useNavigation();
  const searchHref = (next: QueryChange<RouteQuery<Route>>) => withSearch(path, search, next);
  return [
    (level.query ?? {}) as RouteQuery<Route>,
    (next, options) => nav.navigate(searchHref(next), options),
    searchHref,
  ];
}
