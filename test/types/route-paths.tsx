// route-paths.tsx (type test, checked by `bun run typecheck`, never run): typed paths against a table's patterns. A
// path no pattern answers fails, naming it; a concrete path of a pattern, with a query or a fragment, passes;
// `href` takes exactly a pattern's params. This program registers no table: every API takes any string.
import { href, Link, returnTo, type CheckedHref, type Href, type RoutePattern } from "brisk";
import type { PathOf, TableHref } from "../../src/runtime/route-paths.ts";
import { same } from "./same.ts";

same<PathOf<"/">, "/">(true);
same<PathOf<"/examples/guestbook/:id">, `/examples/guestbook/${string}`>(true);
same<PathOf<"/a/:b?">, "/a" | `/a/${string}`>(true);
same<PathOf<"/:b?">, "/" | `/${string}`>(true);
same<PathOf<"/archive/:year/:month?">, `/archive/${string}` | `/archive/${string}/${string}`>(true);
same<PathOf<"/files/*">, `/files/${string}`>(true);

type Patterns =
  | "/"
  | "/examples/search"
  | "/examples/guestbook/:id"
  | "/files/*"
  | "/archive/:year/:month?"
  | "/examples/nested"
  | "/examples/nested/items/:id"
  | "/shop/:shop"
  | "/shop/:shop/items/:item";
declare function go<const T extends string>(to: TableHref<T, Patterns>): void;

go("/");
go("/examples/nested/items/1");
go("/examples/search?q=x#top");
go("/examples/search#results");
go("/shop/acme/items/9");
go("/archive/2026");
go("/archive/2026/11");
go("/files/a/b/c.txt");
go("?page=2");
go("#top");
go("https://example.com/x");
go(href("/examples/guestbook/:id", { id: "3" }));
go(`/examples/guestbook/${Number("3")}` as const);
go(returnTo("/x", "/"));
// @ts-expect-error: no route answers it
go("/examples/nestd");
// @ts-expect-error: a param is one segment
go("/shop/acme/nope");
// @ts-expect-error: a param is never empty
go("/examples/guestbook/");
// @ts-expect-error: nothing under a page without children
go("/examples/search/more");
// @ts-expect-error: only http(s) URLs leave the site
go("javascript:alert(1)");
// @ts-expect-error: any string is not a path of the table
go(String("/examples/search"));

// The message names the path.
same<TableHref<"/examples/nestd", Patterns>, "no route answers /examples/nestd">(true);

// href takes exactly the pattern's params, and gives a path of it.
same<
  ReturnType<typeof href<"/examples/guestbook/:id">>,
  `/examples/guestbook/${string}` | `/examples/guestbook/${string}?${string}`
>(true);
go(href("/examples/search", {}, { q: "brisk" }));
export const built = [
  href("/examples/nested/items/:id", { id: "1" }),
  href("/examples/search"),
  href("/archive/:year/:month?", { year: "2026" }),
];
// @ts-expect-error: `id` is missing
href("/examples/nested/items/:id", {});
// @ts-expect-error: the pattern has no `slug`
href("/examples/nested/items/:id", { id: "1", slug: "x" });
// @ts-expect-error: a pattern with params needs them
href("/examples/nested/items/:id");

// Without a registered table: any string, everywhere.
same<RoutePattern, string>(true);
same<Href, string>(true);
same<CheckedHref<"/anything">, "/anything">(true);
export const anyLink = <Link to={String("/anywhere")}>anywhere</Link>;
