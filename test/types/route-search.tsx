// route-search.tsx (type test, checked by `bun run typecheck`, never run): a route's `search` schema types the
// `query` its loader, action and middleware get, and what useRouteSearch(route) gives a component: the parse,
// the fields setQuery and searchHref take, and a path a <Link> takes.
import { t } from "elysia";
import { Link, route, useRouteData, useRouteSearch, type LoaderContext, type NoQuery, type SafePath } from "brisk";
import { same } from "./same.ts";

const Page = () => null;

const listSearch = t.Object({
  page: t.Integer({ minimum: 1, default: 1 }),
  sort: t.Optional(t.Union([t.Literal("new"), t.Literal("old")])),
  tags: t.Array(t.String(), { default: [] }),
});
type ListQuery = { page: number; sort?: "new" | "old"; tags: string[] };

export const listRoute = route("/list/:shelf", {
  search: listSearch,
  component: Page,
  middleware: [({ query }) => void same<typeof query, ListQuery>(true)],
  loader: ({ params, query }) => ({ shelf: params.shelf, page: query.page, sort: query.sort }),
  action: ({ query }) => query.tags.length,
});

// A loader declared apart names its query's type; the route checks it against the schema's.
function tagsLoader({ query }: LoaderContext<{ shelf: string }, { tags: string[] }>) {
  return query.tags;
}
export const apart = route("/apart/:shelf", { search: listSearch, component: Page, loader: tagsLoader });

// @ts-expect-error: the schema has no `color`
export const wrongField = route("/wrong", { search: listSearch, component: Page, loader: ({ query }) => query.color });

// @ts-expect-error: without a schema there is no query to read
export const noSchema = route("/none", { component: Page, loader: ({ query }) => query.page });

// @ts-expect-error: a loader that needs a parse on a route with no schema
export const missingSchema = route("/missing/:shelf", { component: Page, loader: tagsLoader });

// The loader's data is still what useRouteData reads.
same<
  ReturnType<typeof useRouteData<typeof listRoute>>,
  { shelf: string; page: number; sort: "new" | "old" | undefined }
>(true);

const plain = route("/plain", { component: Page });

export function Pager() {
  const [query, setQuery, searchHref] = useRouteSearch(listRoute);
  same<typeof query, ListQuery>(true);
  same<ReturnType<typeof searchHref>, SafePath>(true);
  setQuery({ page: query.page + 1 });
  setQuery({ sort: undefined }, { replace: true });
  // @ts-expect-error: a page is a number
  setQuery({ page: "2" });
  // @ts-expect-error: sort takes "new" or "old"
  searchHref({ sort: "newest" });
  // @ts-expect-error: the schema has no `color`
  searchHref({ color: "red" });
  const [none] = useRouteSearch(plain);
  same<typeof none, NoQuery>(true);
  return <Link to={searchHref({ page: query.page + 1, tags: [...query.tags, "x"] })}>next</Link>;
}
