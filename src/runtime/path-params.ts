// path-params.ts: the params a route pattern gives, as a type, named as regexparam (wouter's parser) names them:
// `/u/:name` → `{ name: string }`, `:name?` → `name?: string`, `:file.mp4` → `file`, `*` → `"*"` (`*?` optional).
// A pattern known only as `string` gives `Record<string, string>`.

/** Each `/`-separated part of a pattern. */
type Segments<Pattern extends string> = Pattern extends `${infer Head}/${infer Tail}` ? Head | Segments<Tail> : Pattern;

/** regexparam's key of a `:` segment: up to a `?`, else up to a `.` (a suffix such as `.mp4`). */
type KeyOf<Name extends string> = Name extends `${infer Key}?${string}`
  ? Key
  : Name extends `${infer Key}.${string}`
    ? Key
    : Name;

/** regexparam makes a `:` segment optional when it has a `?` and no suffix. */
type Optional<Name extends string> = Name extends `${string}?${string}`
  ? Name extends `${string}.${string}`
    ? false
    : true
  : false;

type RequiredKeys<Segment extends string> = Segment extends `*${infer Rest}`
  ? Rest extends `?${string}`
    ? never
    : "*"
  : Segment extends `:${infer Name}`
    ? Optional<Name> extends true
      ? never
      : KeyOf<Name>
    : never;

type OptionalKeys<Segment extends string> = Segment extends `*?${string}`
  ? "*"
  : Segment extends `:${infer Name}`
    ? Optional<Name> extends true
      ? KeyOf<Name>
      : never
    : never;

type Flat<T> = { [K in keyof T]: T[K] } & {};

/** The params a loader or an action of the route at `Pattern` gets: `PathParams<"/u/:name">` is `{ name: string }`. */
export type PathParams<Pattern extends string> = string extends Pattern
  ? Record<string, string>
  : Flat<{ [K in RequiredKeys<Segments<Pattern>>]: string } & { [K in OptionalKeys<Segments<Pattern>>]?: string }>;

/** A child's full pattern: its own when absolute, else its parent's and its own joined (as the route table does). */
export type JoinPattern<Parent extends string, Path extends string> = Path extends `/${string}`
  ? Path
  : `${Parent}/${Path}`;
