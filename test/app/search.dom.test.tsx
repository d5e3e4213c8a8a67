// The search example's page under happy-dom, rendered inside the app by brisk/test's renderInApp: what its
// loader data shows, and where its link sends the visitor. `bun run test:app` runs `*.dom.test.tsx` files in
// a run of their own, with brisk/test's happy-dom preload.
import { afterEach, expect, test } from "bun:test";
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { renderInApp } from "brisk/test";

afterEach(cleanup);

test("shows the query from its loader data, in the box and the answer, and its link goes back to the examples", async () => {
  const { navigations } = await renderInApp(undefined, { path: "/examples/search?q=brisk", data: { q: "brisk" } });
  expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Search");
  expect(screen.getByRole<HTMLInputElement>("textbox", { name: "Query" }).value).toBe("brisk");
  expect(document.querySelector("#query")?.textContent).toBe("brisk");
  fireEvent.click(screen.getByRole("link", { name: "← All examples" }));
  expect(navigations.map(([to]) => to)).toEqual(["/"]);
});
