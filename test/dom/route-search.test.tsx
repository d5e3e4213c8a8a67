// useRouteSearch(route) in the browser's rendering: the parse of the route's search schema that the page carries
// (renderInApp parses as the server would), setQuery's navigations and searchHref's paths with some fields changed
// (numbers and booleans as String() writes them, arrays as repeated keys, after the other keys, which stay; undefined
// removed).
import { afterEach, expect, test } from "bun:test";
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { t } from "elysia";
import { route, useRouteSearch } from "brisk";
import { renderInApp } from "brisk/test";
import fixtureApp from "../fixtures/app/app.ts";
import { defineApp } from "../../src/runtime/app-definition.ts";

afterEach(cleanup);

const shelfSearch = t.Object({
  page: t.Integer({ minimum: 1, default: 1 }),
  open: t.Optional(t.Boolean()),
  tags: t.Array(t.String(), { default: [] }),
});

function Shelf() {
  const [query, setQuery, searchHref] = useRouteSearch(shelfRoute);
  return (
    <main>
      <output>{JSON.stringify(query)}</output>
      <button type="button" onClick={() => setQuery({ page: query.page + 1, open: true })}>
        next
      </button>
      <button type="button" onClick={() => setQuery({ tags: ["a", "b"], page: undefined }, { replace: true })}>
        tagged
      </button>
      <a href={searchHref({ tags: [], open: false })}>untagged</a>
    </main>
  );
}

const shelfRoute = route("/shelf", { search: shelfSearch, component: Shelf });
const app = defineApp({ ...fixtureApp, routes: [shelfRoute, ...fixtureApp.routes] });

test("the page's parse, typed, with its defaults", async () => {
  await renderInApp(undefined, { path: "/shelf?tags=x&utm=mail", app });
  expect(screen.getByRole("status").textContent).toBe('{"page":1,"tags":["x"]}');
});

test("setQuery navigates to the same path with the fields changed, the rest kept; replace when asked", async () => {
  const { navigations } = await renderInApp(undefined, { path: "/shelf?utm=mail&page=2&tags=x", app });
  fireEvent.click(screen.getByRole("button", { name: "next" }));
  fireEvent.click(screen.getByRole("button", { name: "tagged" }));
  expect(navigations).toEqual([
    ["/shelf?utm=mail&tags=x&page=3&open=true", undefined],
    ["/shelf?utm=mail&tags=a&tags=b", { replace: true }],
  ]);
});

test("searchHref: an empty array removes the key, a boolean is written as String() writes it", async () => {
  await renderInApp(undefined, { path: "/shelf?tags=x&tags=y&page=2", app });
  expect(screen.getByRole("link", { name: "untagged" }).getAttribute("href")).toBe("/shelf?page=2&open=false");
});
