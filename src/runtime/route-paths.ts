// route-paths.ts: the paths of the app's route table as types, so a link, a form's action, a fetcher's target or a
// redirect to a path no route answers is a type error that names it, and `href()` builds a path from a pattern and
// its params.
//
// The table's patterns reach the types through `Register`, which Brisk's typegen fills from the app's own table
// (route-types.ts: `bun run typecheck` and `bun run dev` write it, git ignores it). Not from `typeof routes`: a
// loader that redirects would make the table's type depend on itself. Without it every path is a string.
import type { PathParams } from "./path-params.ts";

/** Where the app's route patterns are registered (`interface Register { patterns: "/" | "/u/:id" }`), by the typegen. */
export interface Register {}

type Registered = Register extends { patterns: infer Patterns extends string } ? Patterns : undefined;

/** The patterns of the app's table (`/shop/items/:id`); any string when none are registered. */
export type RoutePattern = Registered extends infer Patterns extends string ? Patterns : string;

/** The paths a pattern matches: a param or a splat is any text; an optional last one may be left out. */
export type PathOf<Pattern extends string> = Pattern extends `${string}?`
  ? Filled<Pattern> | Filled<WithoutLast<Pattern>>
  : Filled<Pattern>;

/** The pattern without its last segment (`/a/:b?` → `/a`; `/:b?` → `/`). */
type WithoutLast<Pattern extends string> = Pattern extends `${infer Head}/${infer Tail}`
  ? Tail extends `${string}/${string}`
    ? `${Head}/${WithoutLast<Tail>}`
    : Head extends ""
      ? "/"
      : Head
  : Pattern;

type Filled<Pattern extends string> = Pattern extends `${infer Head}/${infer Tail}`
  ? `${Segment<Head>}/${Filled<Tail>}`
  : Segment<Pattern>;
type Segment<S extends string> = S extends `:${string}` | `*${string}` ? string : S;

/**
 * A path of the app's table, with any query or fragment, the page's own query or fragment (`?page=2`), or another
 * site's http(s) URL: the type of a variable that holds a link. Any string without a registered table.
 */
export type Href = Registered extends infer Patterns extends string ? HrefOf<PathOf<Patterns>> : string;
type HrefOf<Path extends string> =
  | Path
  | `${Path}?${string}`
  | `${Path}#${string}`
  | `?${string}`
  | `#${string}`
  | `http://${string}`
  | `https://${string}`;

/** A path `returnTo()` vouched for: on this site, though no pattern of the table need answer it. */
export type SafePath = string & { readonly __briskSafePath: true };

/**
 * What an API that takes a path accepts for `T`: `T` itself when a route of the registered table answers it (with
 * any query or fragment), when it is only a query or a fragment, another site's http(s) URL, or a path from
 * `href()` or `returnTo()`; else a message naming it, which is what the type error shows:
 * `Argument of type '"/examples/nestd"' is not assignable to parameter of type '"no route answers /examples/nestd"'`.
 * Any `T` without a registered table.
 */
export type CheckedHref<T extends string> = Registered extends infer Patterns extends string
  ? TableHref<T, Patterns>
  : T;

/** `CheckedHref` against the given patterns. */
export type TableHref<T extends string, Patterns extends string> = T extends SafePath
  ? T
  : string extends T
    ? "a path of the route table: a literal, href() or returnTo(), not any string"
    : T extends `http://${string}` | `https://${string}` | `?${string}` | `#${string}`
      ? T
      : Answered<PathPart<T>, Patterns> extends true
        ? T
        : `no route answers ${T}`;

/** The path of an href, without its query or fragment. */
type PathPart<T extends string> = T extends `${infer Path}?${string}`
  ? PathPart<Path>
  : T extends `${infer Path}#${string}`
    ? Path
    : T;

/** Whether any of the patterns matches the path, segment by segment (a param any one non-empty segment). */
type Answered<Path extends string, Patterns extends string> = true extends (
  Patterns extends unknown
    ? Matches<SegmentsOf<Path>, SegmentsOf<Patterns>>
    : never
)
  ? true
  : false;

type SegmentsOf<Path extends string> = Path extends `/${infer Rest}`
  ? Rest extends ""
    ? []
    : Split<Rest>
  : ["not a path"];
type Split<Rest extends string> = Rest extends `${infer Head}/${infer Tail}` ? [Head, ...Split<Tail>] : [Rest];

type Matches<Path extends readonly string[], Pattern extends readonly string[]> = Pattern extends [
  infer Head extends string,
  ...infer Tail extends string[],
]
  ? Head extends `*${string}`
    ? true
    : Path extends [infer Segment extends string, ...infer Rest extends string[]]
      ? (
          Head extends `:${string}`
            ? Segment extends ""
              ? false
              : true
            : Segment extends Head
              ? true
              : false
        ) extends true
        ? Matches<Rest, Tail>
        : false
      : Tail extends []
        ? Head extends `:${string}?`
          ? true
          : false
        : false
  : Path extends []
    ? true
    : false;

type ParamsArg<Pattern extends string> =
  {} extends PathParams<Pattern> ? [params?: PathParams<Pattern>] : [params: PathParams<Pattern>];

/** A query for `href`: its fields, or the params as they are. */
type SearchInit = Record<string, string> | URLSearchParams;

/**
 * The path of `pattern` with its params put in, each percent-encoded (a splat's `/` kept), and `search` as its
 * query when given: `href("/shop/items/:id", { id: "42" })` is `/shop/items/42`, `href("/sign-in", {}, { next })`
 * `/sign-in?next=…`. A param the pattern lacks, or one it names and is not given, is a type error, and a missing
 * one throws.
 */
export function href<const Pattern extends RoutePattern>(
  pattern: Pattern,
  ...[params, search]: [...ParamsArg<NoInfer<Pattern>>, search?: SearchInit]
): PathOf<Pattern> | `${PathOf<Pattern>}?${string}` {
  const given = (params ?? {}) as Record<string, string | undefined>;
  const segments = pattern.split("/").flatMap((segment) => {
    const param = /^(?::([^?.]+)|(\*))(\?)?(.*)$/.exec(segment);
    if (!param) return [segment];
    const [, name = "*", , optional, suffix] = param;
    const value = given[name];
    if (value === undefined) {
      if (optional) return [];
      throw new Error(`href("${pattern}"): no value for the param "${name}"`);
    }
    return [(name === "*" ? value.split("/").map(encodeURIComponent).join("/") : encodeURIComponent(value)) + suffix];
  });
  const path = segments.join("/") || "/";
  const query = search === undefined ? "" : new URLSearchParams(search).toString();
  return (query ? `${path}?${query}` : path) as PathOf<Pattern>;
}
