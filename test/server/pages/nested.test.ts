// Nested routes through the real app (app.handle): each level's loader and markup, loaders side by side, the
// status decided from every level, route fallbacks inside the layout, page data that keeps levels, and
// routes without a page.
import { beforeAll, describe, expect, test } from "bun:test";
import { routeTree } from "../../../src/runtime/route-tree.ts";
import { logFor, serveApp, type ServedApp } from "brisk/test";
import { FIXTURE, testConfig } from "../../support/app.ts";
import { bootState, pageData as pageDataIn, settledInScripts } from "../../support/page-state.ts";

let t: ServedApp;
beforeAll(async () => {
  t = await serveApp(FIXTURE);
});

const pageData = (path: string, init?: RequestInit) => pageDataIn(t, path, init);

const loadsIn = (html: string) => Number(/<span id="shop-loads">(\d+)<\/span>/.exec(html)?.[1]);

describe("the route table", () => {
  const page = () => null;

  test("children join their parent's pattern; an index child answers the parent's own path; ids default to the pattern", () => {
    const tree = routeTree([
      {
        path: "/a",
        component: page,
        children: [
          { index: true, component: page },
          { path: "b/:id", component: page },
        ],
      },
    ]);
    expect(tree.match("/a")?.levels.map((l) => l.node.id)).toEqual(["/a", "/a?index"]);
    expect(tree.match("/a/b/7")).toMatchObject({ pattern: "/a/b/:id", params: { id: "7" } });
    // No child matches: the layout alone, marked missing (the not-found page inside it).
    expect(tree.match("/a/b")).toMatchObject({ missing: true, pattern: "/a/*" });
  });

  test("a parent without an index child answers its own path alone", () => {
    const tree = routeTree([{ path: "/a", component: page, children: [{ path: "b", component: page }] }]);
    expect(tree.match("/a")?.levels.map((l) => l.node.id)).toEqual(["/a"]);
  });

  test("each level gets the params its own pattern names", () => {
    const tree = routeTree([{ path: "/c/:category", component: page, children: [{ path: ":id", component: page }] }]);
    expect(tree.match("/c/pots/9")?.levels.map((l) => l.params)).toEqual([
      { category: "pots" },
      { category: "pots", id: "9" },
    ]);
  });

  test("a literal segment matches itself only: the dot of /feed.xml is a dot", () => {
    const tree = routeTree([
      { path: "/feed.xml", loader: () => null },
      { path: "/a+b/(c)", component: page },
    ]);
    expect(tree.match("/feed.xml")?.pattern).toBe("/feed.xml");
    expect(tree.match("/feedXxml")).toBeNull();
    expect(tree.match("/a+b/(c)")?.pattern).toBe("/a+b/(c)");
    expect(tree.match("/aab/c")).toBeNull();
  });

  test("a malformed table fails when it is compiled, naming the route", () => {
    expect(() =>
      routeTree([
        { path: "/x", component: page },
        { path: "/x", component: page },
      ]),
    ).toThrow("two routes have the id /x");
    expect(() => routeTree([{ path: "x", component: page }])).toThrow("top-level route x must start with /");
    expect(() => routeTree([{ index: true, component: page }])).toThrow(
      "an index route must be a child of another route",
    );
    expect(() => routeTree([{ path: "/a", children: [{ path: "/b", component: page }] }])).toThrow(
      "route /b is not under its parent /a",
    );
  });
});

describe("documents", () => {
  test("the layout and its index child, each with its own loader data", async () => {
    const res = await t.request("/shop");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<nav id="shop-nav">');
    expect(html).toContain('<p id="shop-index">featured <!-- -->kettle</p>');
    expect(bootState(html).page.levels).toEqual([
      { id: "shop", data: { loads: expect.any(Number), who: "nobody", cart: expect.any(Number) } },
      { id: "/shop?index", data: { featured: "kettle" } },
    ]);
  });

  test("a child reads its own data, its layout's by id, and the path's params", async () => {
    const html = await (await t.request("/shop/items/7")).text();
    expect(html).toContain("Item <!-- -->7<!-- -->, <!-- -->0<!-- --> likes, seen by <!-- -->nobody");
  });

  test("params of every level reach the levels below it, and no level gets a param below it", async () => {
    const html = await (await t.request("/shop/c/pots/9")).text();
    const levels = [...html.matchAll(/data-params="([^"]*)"/g)].map((m) => JSON.parse(m[1]!.replaceAll("&quot;", '"')));
    expect(levels).toEqual(
      [{ params: { category: "pots" } }, { params: { category: "pots", id: "9" } }].map((l) => l.params),
    );
  });

  test("not found in a child: 404, the layout's own not-found page inside the layout, noindex", async () => {
    const res = await t.request("/shop/items/404");
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('<nav id="shop-nav">');
    expect(html).toContain('<p id="shop-not-found">');
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).not.toContain("Page not found");
  });

  test("an outcome the layout has no page for: the app's page, without the layout", async () => {
    const res = await t.request("/shop/items/401");
    expect(res.status).toBe(401);
    const html = await res.text();
    expect(html).toContain("Sign-in required");
    expect(html).not.toContain('<nav id="shop-nav">');
  });

  test("a child's loader error: 500, the digest inside the layout, logged and reported once", async () => {
    const res = await t.request("/shop/broken");
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(html).toContain('<nav id="shop-nav">');
    const digest = /id="shop-error".*?Digest: <code>([0-9a-z]{10})<\/code>/s.exec(html)?.[1];
    expect(digest).toBeTruthy();
    expect(html).not.toContain("Fixture failure");
    const line = await logFor(t.logs, res);
    expect(line).toMatchObject({ status: 500, digest, phase: "loader", route: "/shop/broken" });
  });

  test("a child that throws while rendering: 500, the layout's error page inside the layout", async () => {
    const res = await t.request("/shop/render-broken");
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(html).toContain('<nav id="shop-nav">');
    expect(html).toMatch(/id="shop-error".*?Digest: <code>[0-9a-z]{10}<\/code>/s);
    expect(bootState(html).page.boundary).toEqual({ id: "shop", depth: 1 });
  });

  test("the layout's own loader fails: its error page in its place, with no layout around it", async () => {
    const res = await t.request("/shop/layout-fails");
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(html).toContain('id="shop-error"');
    expect(html).not.toContain('<nav id="shop-nav">');
  });

  test("a streamed value of a child streams as its own route's", async () => {
    const html = await (await t.request("/shop/late")).text();
    expect(html).toContain('<p id="late-fallback">');
    expect(settledInScripts(html)).toEqual([{ route: "/shop/late", key: "section", value: "late child value" }]);
  });

  test("the layout's and the child's loaders run side by side: the child's starts before the layout's 300 ms are over", async () => {
    const started = performance.now();
    const res = await t.request("/shop/slow");
    const [layout, child] = bootState(await res.text()).page.levels.map(
      (l: { data: { started: number } }) => l.data.started,
    );
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    // In a waterfall the child's loader would start 300 ms after the layout's, once it had returned.
    expect(child - layout).toBeLessThan(150);
  });
});

describe("page data", () => {
  test("says which levels it carries, each with its data", async () => {
    const { head } = await pageData("/shop/items/2");
    expect(head.levels).toEqual([
      { id: "shop", data: expect.objectContaining({ who: "nobody" }) },
      { id: "/shop/items/:id", data: { id: "2", likes: expect.any(Number) } },
    ]);
  });

  test("levels the client keeps are not loaded again: the layout's loader does not run", async () => {
    const before = loadsIn(await (await t.request("/shop")).text());
    const { head } = await pageData("/shop/items/2?_keep=1");
    expect(head.levels).toEqual([
      { id: "shop", kept: true },
      { id: "/shop/items/:id", data: { id: "2", likes: expect.any(Number) } },
    ]);
    // The keep parameter is the framework's: the page's own search does not carry it.
    expect(head.search).toBe("");
    expect(loadsIn(await (await t.request("/shop")).text())).toBe(before + 1);
  });

  test("the innermost level is always loaded, whatever the client asks to keep", async () => {
    const { head } = await pageData("/shop/items/3?_keep=9");
    expect(head.levels.map((l: { kept?: boolean }) => l.kept ?? false)).toEqual([true, false]);
  });

  test("an outcome in a child is the layout's fallback, in the payload as a boundary", async () => {
    const { status, head } = await pageData("/shop/items/404");
    expect(status).toBe(404);
    expect(head).toMatchObject({ outcome: { kind: "not-found", status: 404 }, boundary: { id: "shop", depth: 1 } });
    expect(head.levels[0].data).toMatchObject({ who: "nobody" });
    expect(head.levels[1].data).toBeUndefined();
  });
});

describe("routes without a page", () => {
  test("a Response goes out as it is, any content type", async () => {
    const res = await t.request("/feed.xml");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    expect(await res.text()).toContain("<title>Fixture &amp; feed</title>");
  });

  test("a plain value is JSON, with the headers and cookies the loader set, and one log line", async () => {
    const res = await t.request("/resource?q=x");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ resource: true, q: "x" });
    expect(res.headers.get("cache-control")).toBe("public, max-age=5");
    expect(res.headers.get("set-cookie")).toStartWith("seen=1");
    expect(await logFor(t.logs, res)).toMatchObject({ status: 200, route: "/resource" });
  });

  test("nothing returned is 204", async () => {
    expect((await t.request("/resource?outcome=nothing")).status).toBe(204);
  });

  test("an outcome: JSON for a client that does not take HTML, the app's page for a browser", async () => {
    const json = await t.request("/resource?outcome=missing");
    expect(json.status).toBe(404);
    expect(await json.json()).toEqual({ error: "not found" });
    const html = await t.request("/resource?outcome=missing", { headers: { accept: "text/html,*/*" } });
    expect(html.status).toBe(404);
    expect(await html.text()).toContain("Page not found");
    const moved = await t.request("/resource?outcome=moved");
    expect([moved.status, moved.headers.get("location")]).toEqual([307, "/shop"]);
  });

  test("Accept is read with its q-values: HTML refused is JSON; HTML in any case, or as XHTML, is the page", async () => {
    const answer = async (accept: string) => {
      const res = await t.request("/resource?outcome=missing", { headers: { accept } });
      return [res.status, res.headers.get("content-type")?.split(";", 1)[0]];
    };
    expect(await answer("text/html;q=0, application/json")).toEqual([404, "application/json"]);
    expect(await answer("application/json, text/html;q=0.5")).toEqual([404, "application/json"]);
    expect(await answer("TEXT/HTML")).toEqual([404, "text/html"]);
    expect(await answer("application/xhtml+xml")).toEqual([404, "text/html"]);
  });

  test("an error: 500 JSON with the digest and request id, logged once; a browser gets the error page", async () => {
    const res = await t.request("/resource?outcome=error");
    expect(res.status).toBe(500);
    const body = await res.json();
    // The API's wording (app-input.test.tsx): one 500 for JSON clients, wherever it comes from.
    expect(body).toEqual({
      error: "internal server error",
      digest: expect.stringMatching(/^[0-9a-z]{10}$/),
      requestId: res.headers.get("x-request-id"),
    });
    expect(await logFor(t.logs, res)).toMatchObject({ status: 500, digest: body.digest, phase: "loader" });
    const page = await t.request("/resource?outcome=error", { headers: { accept: "text/html" } });
    expect(page.status).toBe(500);
    expect(await page.text()).toMatch(/Digest: <code>[0-9a-z]{10}<\/code>/);
  });

  test("an action-only route: GET and HEAD are 405 with Allow: POST", async () => {
    for (const method of ["GET", "HEAD"]) {
      const res = await t.request("/shop/items/1/like", { method });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
    }
  });

  test("a loader-only route: POST is 405 with Allow: GET, HEAD", async () => {
    const res = await t.request("/feed.xml", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "a=1",
    });
    expect([res.status, res.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
  });

  const origin = "http://localhost";
  const form = { "content-type": "application/x-www-form-urlencoded", origin };

  test("a form post follows its redirect as a 303; JSON in, JSON out", async () => {
    const res = await t.request("/shop/items/5/like", { method: "POST", headers: form, body: "" });
    expect([res.status, res.headers.get("location")]).toEqual([303, "/shop/items/5"]);
    const json = await t.request("/shop/items/5/like", {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: "{}",
    });
    expect(await json.json()).toEqual({ likes: 2 });
    expect(await (await t.request("/shop/items/5")).text()).toContain("2<!-- --> likes");
  });

  test("the same cross-site rule as page actions: refused before the action runs", async () => {
    const res = await t.request("/shop/items/6/like", {
      method: "POST",
      headers: { ...form, origin: "https://evil.example" },
      body: "",
    });
    expect(res.status).toBe(403);
    expect(await (await t.request("/shop/items/6")).text()).toContain("0<!-- --> likes");
  });

  test("the same body limit as page actions", async () => {
    const res = await t.request("/shop/items/6/like", {
      method: "POST",
      headers: form,
      body: "x=".padEnd(testConfig().actionMaxBytes + 10, "a"),
    });
    expect(res.status).toBe(413);
  });

  test("through page data (a form posted with JavaScript), a redirect is data the client follows", async () => {
    const { status, head } = await pageData("/shop/items/8/like", { method: "POST", headers: form, body: "" });
    expect(status).toBe(200);
    expect(head.outcome).toEqual({ kind: "redirect", location: "/shop/items/8", status: 303 });
  });

  test("through page data, an outcome is the page the client shows", async () => {
    const { status, head } = await pageData("/shop/items/404/like", { method: "POST", headers: form, body: "" });
    expect(status).toBe(404);
    expect(head.outcome).toEqual({ kind: "not-found", status: 404 });
  });
});
