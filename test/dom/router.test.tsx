// The page the app renders for the navigation state: routes, params, search, links.
import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { useSearchParams } from "../../src/runtime/navigation.ts";
import { Page, pagePayload, testNavigation } from "../../src/server/testing/dom.tsx";
import { renderWith } from "./render.tsx";

afterEach(cleanup);

describe("Page", () => {
  test("renders the route that matches the path, with its loader data", async () => {
    const p = pagePayload({ path: "/items/7", route: "/items/:id", levels: [{ id: "/items/:id", data: { id: "7" } }] });
    await renderWith(testNavigation(p).nav, <Page />);
    // The loader's data and wouter's params, both.
    expect(screen.getByText("item 7 of 7")).toBeTruthy();
  });

  test("an unmatched path renders the not-found page", async () => {
    await renderWith(testNavigation(pagePayload({ path: "/nowhere", route: null })).nav, <Page />);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toContain("Page not found");
  });

  test("an outcome in the payload renders its fallback instead of the route", async () => {
    const p = pagePayload({ path: "/forbidden", route: "/forbidden", outcome: { kind: "forbidden", status: 403 } });
    await renderWith(testNavigation(p).nav, <Page />);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toContain("Forbidden");
  });

  test("an error in the payload renders the server-side error page with its digest", async () => {
    const p = pagePayload({ path: "/x", route: "/server-error", error: { digest: "0123456789", side: "server" } });
    await renderWith(testNavigation(p).nav, <Page />);
    expect(screen.getByRole("alert").textContent).toContain(
      "server-side exception has occurred while loading example.test",
    );
    expect(screen.getByText("0123456789")).toBeTruthy();
  });

  test("a Link click asks the navigation store to go there, instead of loading a document", async () => {
    const { nav, calls } = testNavigation(pagePayload({ levels: [{ id: "/", data: { greeting: "Home" } }] }));
    await renderWith(nav, <Page />);
    fireEvent.click(screen.getByRole("link", { name: "Streaming" }));
    expect(calls.map(([to]) => to)).toEqual(["/stream"]);
  });
});

describe("nested routes", () => {
  const shopPayload = (over: Partial<ReturnType<typeof pagePayload>> = {}) =>
    pagePayload({
      path: "/shop/items/3",
      route: "/shop/items/:id",
      levels: [
        { id: "shop", data: { loads: 4, who: "ada", cart: 2 } },
        { id: "/shop/items/:id", data: { id: "3", likes: 1 } },
      ],
      ...over,
    });

  test("each level renders with its own loader data, the child where the layout puts its Outlet", async () => {
    await renderWith(testNavigation(shopPayload()).nav, <Page />);
    expect(document.querySelector("#shop-loads")?.textContent).toBe("4");
    expect(document.querySelector("#shop-child #item")?.textContent).toBe("Item 3, 1 likes, seen by ada");
  });

  test("a boundary in the payload: the layout with its data, the route's fallback in its Outlet", async () => {
    const p = shopPayload({
      levels: [{ id: "shop", data: { loads: 4, who: "ada", cart: 2 } }, { id: "/shop/items/:id" }],
      boundary: { id: "shop", depth: 1 },
      outcome: { kind: "not-found", status: 404 },
    });
    await renderWith(testNavigation(p).nav, <Page />);
    expect(document.querySelector("#shop-child #shop-not-found")).toBeTruthy();
    expect(document.querySelector("#whoami")?.textContent).toBe("ada");
  });

  test("an error at the route's own level: its fallback in its place, the app's layout-free page not used", async () => {
    const p = shopPayload({
      levels: [{ id: "shop" }, { id: "/shop/items/:id" }],
      boundary: { id: "shop", depth: 0 },
      error: { digest: "abcdefghij", side: "server" },
    });
    await renderWith(testNavigation(p).nav, <Page />);
    expect(document.querySelector("#shop-nav")).toBeNull();
    expect(document.querySelector("#shop-error")?.textContent).toContain("abcdefghij");
  });
});

describe("useSearchParams", () => {
  function Pager() {
    const [params, setParams] = useSearchParams();
    return (
      <>
        <output>{`${params.get("q")} page ${params.get("page")}`}</output>
        <button type="button" onClick={() => setParams((p) => (p.set("page", "3"), p))}>
          Next
        </button>
        <button type="button" onClick={() => setParams({ q: "b" }, { replace: true })}>
          Other
        </button>
        <button type="button" onClick={() => setParams("")}>
          Clear
        </button>
      </>
    );
  }

  test("reads the search; setting it navigates to the same path with the new search, as asked", async () => {
    const { nav, calls } = testNavigation(pagePayload({ path: "/items", search: "q=a%26b&page=2" }));
    await renderWith(nav, <Pager />);
    expect(screen.getByRole("status").textContent).toBe("a&b page 2");
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    fireEvent.click(screen.getByRole("button", { name: "Other" }));
    fireEvent.click(screen.getByRole("button", { name: "Clear" }));
    expect(calls).toEqual([
      ["/items?q=a%26b&page=3", undefined],
      ["/items?q=b", { replace: true }],
      ["/items", undefined],
    ]);
  });
});
