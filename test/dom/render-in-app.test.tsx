// brisk/test's renderInApp: a component, or the page a path routes to, rendered inside an app with its loader
// data, and the navigations it asks for recorded.
import { afterEach, expect, test } from "bun:test";
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { Link, useLoaderData, useParams, useSearch } from "brisk";
import fixtureApp from "../fixtures/app/app.ts";
import { renderInApp } from "brisk/test";

afterEach(cleanup);

test("without a component, the page the app's routes give the path, with the loader data and the path's params", async () => {
  await renderInApp(undefined, { path: "/items/7", data: { id: "7" }, app: fixtureApp });
  expect(screen.getByText("item 7 of 7")).toBeTruthy();
});

test("a path no route matches renders the app's not-found fallback", async () => {
  await renderInApp(undefined, { path: "/nowhere", app: fixtureApp });
  expect(screen.getByRole("heading", { level: 1 }).textContent).toContain("Page not found");
});

test("a component of the app's own reads the loader data, the route's params and the search, and its links are recorded navigations", async () => {
  function Item() {
    const { name } = useLoaderData<() => { name: string }>();
    const { id } = useParams<{ id: string }>();
    return <Link href={`/items/${id}/buy?${useSearch()}`}>Buy {name}</Link>;
  }
  const { navigations, unmount } = await renderInApp(<Item />, {
    path: "/items/7?colour=red",
    data: { name: "Kettle" },
    app: fixtureApp,
  });
  fireEvent.click(screen.getByRole("link", { name: "Buy Kettle" }));
  expect(navigations.map(([to]) => to)).toEqual(["/items/7/buy?colour=red"]);
  unmount();
  expect(screen.queryByRole("link")).toBeNull();
});
