// route-ranking.test.tsx: routes ranked by specificity rather than table order (static > param > optional >
// splat, ties by order), and a path no route matches rendered as the not-found page inside the deepest layout
// that matches its beginning, with 404, its guard middleware run and its loader's data shown.
import { beforeAll, describe, expect, test } from "bun:test";
import { Outlet, unauthorized, useLoaderData, useParams, type RouteDefinition } from "brisk";
import { defineApp } from "../../src/runtime/app-definition.ts";
import { rankOf, routeTree } from "../../src/runtime/route-tree.ts";
import { createApp } from "../../src/server/create-app.ts";
import { serveApp, type ServedApp } from "brisk/test";
import { clientAssets, FIXTURE, loadApp, testConfig } from "../support/app.ts";
import { pageData } from "../support/page-state.ts";

const page = () => null;

describe("ranking", () => {
  test("a static segment beats a param, a param an optional one, anything a splat", () => {
    expect(rankOf("/files/readme")).toBeGreaterThan(rankOf("/files/:name"));
    expect(rankOf("/files/:name")).toBeGreaterThan(rankOf("/files/:name?"));
    expect(rankOf("/files/:name?")).toBeGreaterThan(rankOf("/files/*"));
    expect(rankOf("/a", true)).toBeGreaterThan(rankOf("/a"));
  });

  test("the more specific route answers its path wherever it is declared", () => {
    const tree = routeTree([
      { path: "/*", component: page },
      { path: "/files/*", component: page },
      { path: "/files/:name", component: page },
      { path: "/files/readme", component: page },
      { path: "/orders.csv", loader: () => "" },
    ]);
    expect(tree.match("/files/readme")?.pattern).toBe("/files/readme");
    expect(tree.match("/files/other")?.pattern).toBe("/files/:name");
    expect(tree.match("/files/a/b")).toMatchObject({ pattern: "/files/*", params: { "*": "a/b" } });
    // A catch-all declared first no longer turns a route without a page into a 404.
    expect(tree.match("/orders.csv")?.pattern).toBe("/orders.csv");
    expect(tree.match("/anything/else")?.pattern).toBe("/*");
  });

  test("equal ranks keep table order", () => {
    const tree = routeTree([
      { path: "/u/:id", id: "first", component: page },
      { path: "/u/:name", id: "second", component: page },
    ]);
    expect(tree.match("/u/7")?.levels.at(-1)?.node.id).toBe("first");
  });

  test("children are ranked too, and an index child still answers its parent's path", () => {
    const tree = routeTree([
      {
        path: "/shop",
        component: page,
        children: [
          { path: "*", component: page },
          { path: "cart", component: page },
          { index: true, component: page },
        ],
      },
    ]);
    expect(tree.match("/shop/cart")?.pattern).toBe("/shop/cart");
    expect(tree.match("/shop")?.levels.map((l) => l.node.id)).toEqual(["/shop", "/shop?index"]);
    expect(tree.match("/shop/x/y")?.pattern).toBe("/shop/*");
  });
});

describe("an unmatched path inside layouts", () => {
  test("matches the deepest layout whose pattern matches its beginning, marked missing", () => {
    const tree = routeTree([
      {
        path: "/",
        component: page,
        children: [{ path: "a", component: page, children: [{ path: "b", component: page }] }],
      },
    ]);
    expect(tree.match("/a/zzz")).toMatchObject({ missing: true, pattern: "/a/*" });
    expect(tree.match("/a/zzz")?.levels.map((l) => l.node.id)).toEqual(["/", "/a"]);
    expect(tree.match("/zzz")).toMatchObject({ missing: true, pattern: "/*" });
    expect(routeTree([{ path: "/a", component: page }]).match("/a/b")).toBeNull();
  });

  let t: ServedApp;
  beforeAll(async () => {
    t = await serveApp(FIXTURE);
  });

  test("the layout's own not-found fallback shows inside it, 404", async () => {
    const res = await t.request("/shop/no/such/thing");
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('<nav id="shop-nav">');
    expect(html).toContain('<p id="shop-not-found">No such thing in the shop</p>');
  });

  test("page data says the same: the layout's data, the fallback at the level below it", async () => {
    const { status, head } = await pageData(t, "/shop/no/such/thing");
    expect(status).toBe(404);
    expect(head.outcome).toEqual({ kind: "not-found", status: 404 });
    expect(head.boundary).toEqual({ id: "shop", depth: 1 });
    expect(head.levels[0].data).toBeDefined();
  });

  test("a post to it is 405, as to any unmatched path", async () => {
    const res = await t.request("/shop/no/such/thing", { method: "POST", headers: { origin: "http://localhost" } });
    expect(res.status).toBe(405);
  });

  const Root = () => (
    <div>
      <header id="root-header">{useLoaderData<() => { who: string }>().who}</header>
      <Outlet />
    </div>
  );
  const Splat = () => <p id="splat">{useParams()["*"]}</p>;

  test("without a fallback of its own, the app's not-found page shows inside the root layout", async () => {
    const fixture = await loadApp();
    const routes: RouteDefinition[] = [
      {
        path: "/",
        component: Root,
        loader: () => ({ who: "root" }),
        children: [
          { path: "files/*", component: Splat },
          { path: "files/readme", component: () => <p id="readme">readme</p> },
          {
            path: "private",
            component: Outlet,
            middleware: [() => unauthorized()],
            children: [{ path: "page", component: page }],
          },
        ],
      },
    ];
    const app = createApp(testConfig(), defineApp({ ...fixture, routes }), {
      assets: await clientAssets(),
      log: () => {},
    });
    const get = (path: string) => app.handle(new Request(`http://localhost${path}`));
    const missing = await get("/nowhere");
    expect(missing.status).toBe(404);
    const html = await missing.text();
    expect(html).toContain('<header id="root-header">root</header>');
    expect(html).toContain("<h1>404<!-- --> <!-- -->Page not found</h1>");
    expect(await (await get("/files/readme")).text()).toContain('<p id="readme">readme</p>');
    expect(await (await get("/files/a/b")).text()).toContain('<p id="splat">a/b</p>');
    // Under a guarded layout, an unmatched path is the guard's answer, not a 404 that shows the layout.
    expect((await get("/private/nothing-here")).status).toBe(401);
  });
});
