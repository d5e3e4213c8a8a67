// typed-route.test.ts: route() builds the definitions the route table compiles, and the params a matched path
// gives are the ones its types name (regexparam's keys: `*` for a wildcard, an optional param absent when empty).
import { describe, expect, test } from "bun:test";
import { route, type RouteDefinition } from "brisk";
import { routeTree } from "../../src/runtime/route-tree.ts";

const Page = () => null;
const loader = () => null;

describe("route()", () => {
  test("is the definition written out, with its path", () => {
    const fallbacks = { "not-found": Page };
    expect<RouteDefinition>(
      route("/u/:name", { component: Page, loader, id: "user", fallbacks, styles: ["u.css"] }),
    ).toEqual({
      path: "/u/:name",
      component: Page,
      loader,
      id: "user",
      fallbacks,
      styles: ["u.css"],
    });
    expect("children" in route("/feed.xml", { loader })).toBe(false);
  });

  test("children through `child`: relative, absolute under the parent, and the index child", () => {
    const shop = route("/shop/:shop", {
      component: Page,
      children: (child) => [
        child.index({ component: Page, loader }),
        child("items/:id", { component: Page }),
        child("/shop/:shop/sale", { component: Page }),
      ],
    });
    expect(shop.children).toEqual([
      { index: true, component: Page, loader },
      { path: "items/:id", component: Page },
      { path: "/shop/:shop/sale", component: Page },
    ]);
    const tree = routeTree([shop]);
    expect(tree.match("/shop/north")?.levels.map((l) => [l.node.id, l.params])).toEqual([
      ["/shop/:shop", { shop: "north" }],
      ["/shop/:shop?index", { shop: "north" }],
    ]);
    expect(tree.match("/shop/north/items/7")?.params).toEqual({ shop: "north", id: "7" });
    expect(tree.match("/shop/north/sale")?.pattern).toBe("/shop/:shop/sale");
  });

  test("a child's children get the full pattern's params", () => {
    const tree = routeTree([
      route("/shop/:shop", {
        component: Page,
        children: (child) => [
          child("c/:category", { component: Page, children: (grandchild) => [grandchild(":id", { component: Page })] }),
        ],
      }),
    ]);
    expect(tree.match("/shop/s/c/pots/9")?.levels.at(-1)?.params).toEqual({ shop: "s", category: "pots", id: "9" });
  });

  test("the params are named as the types name them: `*` for a wildcard, an optional one absent when not given", () => {
    const tree = routeTree([
      route("/files/*", { component: Page }),
      route("/archive/:year/:month?", { component: Page }),
      route("/videos/:file.mp4", { component: Page }),
    ]);
    expect(tree.match("/files/a/b.txt")?.params).toEqual({ "*": "a/b.txt" });
    expect(tree.match("/archive/2026")?.params).toEqual({ year: "2026" });
    expect(tree.match("/archive/2026/11")?.params).toEqual({ year: "2026", month: "11" });
    expect(tree.match("/videos/intro.mp4")?.params).toEqual({ file: "intro" });
  });
});
