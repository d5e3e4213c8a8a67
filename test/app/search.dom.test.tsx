// The search example's page under happy-dom, rendered inside the app by brisk/test's renderInApp: what its
// loader data shows, and where its link sends the visitor. `bun run test:app` runs `*.dom.test.tsx` files in
// a run of their own, with brisk/test's happy-dom preload.
import { afterEach, expect, test } from "bun:test";
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { renderInApp } from "brisk/test";

afterEach(cleanup);

test("shows the query from its loader data, in the box and the answer, and its link goes back to the examples", async () => {
  const { navigations } = await renderInApp(undefined, {
    path: "/examples/search?q=brisk",
    data: { q: "brisk", results: [], first: 1, total: 0, pages: 1 },
  });
  expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Search");
  expect(screen.getByRole<HTMLInputElement>("textbox", { name: "Query" }).value).toBe("brisk");
  expect(document.querySelector("#query")?.textContent).toBe("brisk");
  fireEvent.click(screen.getByRole("link", { name: "← All examples" }));
  expect(navigations.map(([to]) => to)).toEqual(["/"]);
});

test("its pager and sort links change the page and sort of the URL the schema parsed, and keep every other parameter", async () => {
  const data = { q: "lamp", results: ["Floor lamp"], first: 6, total: 12, pages: 3 };
  const { navigations } = await renderInApp(undefined, {
    path: "/examples/search?q=lamp&utm=mail&page=2&sort=new",
    data,
  });
  expect(document.querySelector("#page")?.textContent).toBe("2");
  expect(screen.getByRole("link", { name: "← Previous" }).getAttribute("href")).toBe(
    "/examples/search?q=lamp&utm=mail&sort=new&page=1",
  );
  expect(screen.getByRole("link", { name: "Next →" }).getAttribute("href")).toBe(
    "/examples/search?q=lamp&utm=mail&sort=new&page=3",
  );
  expect(screen.getByRole("link", { name: "oldest first" }).getAttribute("href")).toBe(
    "/examples/search?q=lamp&utm=mail&sort=old",
  );
  fireEvent.click(screen.getByRole("link", { name: "Next →" }));
  expect(navigations.map(([to]) => to)).toEqual(["/examples/search?q=lamp&utm=mail&sort=new&page=3"]);
});

test("a page the schema refuses reads as its default: page 1, no previous link", async () => {
  await renderInApp(undefined, {
    path: "/examples/search?page=abc",
    data: { q: "", results: [], first: 1, total: 15, pages: 3 },
  });
  expect(document.querySelector("#page")?.textContent).toBe("1");
  expect(screen.queryByRole("link", { name: "← Previous" })).toBeNull();
  expect(screen.getByRole("link", { name: "Next →" }).getAttribute("href")).toBe("/examples/search?page=2");
});
