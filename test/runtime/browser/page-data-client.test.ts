// fetchPageData (page-data-client.ts) in happy-dom against the fixture app's real server: the payload first, the
// streamed values as their lines arrive, the levels the client keeps, and NotPageData for anything else.
import { describe, expect, test } from "bun:test";
import { fetchPageData, NotPageData, pageDataUrl } from "../../../src/runtime/browser/page-data-client.ts";
import type { DeferredSettlement } from "../../../src/runtime/page-payload.ts";
import { freePort } from "brisk/test";
import { liveFixture, openPage, setPageUrl } from "./live-fixture.ts";

const live = liveFixture();

/** The build the fixture server runs, as the page it serves says. */
const buildOf = async () => (await openPage(live.origin, "/")).boot.page.buildId;
const signal = () => new AbortController().signal;

test("pageDataUrl: the page's path under the prefix, its search, and the levels kept after it", () => {
  expect(pageDataUrl(new URL("http://x/shop/items/1"))).toBe("/__data/shop/items/1");
  expect(pageDataUrl(new URL("http://x/search?q=a"), 1)).toBe("/__data/search?q=a&_keep=1");
  expect(pageDataUrl(new URL("http://x/shop"), 2)).toBe("/__data/shop?_keep=2");
});

describe("fetchPageData", () => {
  test("a streamed page: the payload at once, then each streamed value as its line arrives", async () => {
    const build = await buildOf();
    const page = await fetchPageData(new URL("/stream", live.origin), build, signal());
    expect(page.status).toBe(200);
    expect(page.payload.levels).toEqual([{ id: "/stream", data: { requestedAt: "now" }, deferred: ["section"] }]);
    const lines: DeferredSettlement[] = [];
    for await (const s of page.settlements) lines.push(s);
    expect(lines).toEqual([{ route: "/stream", key: "section", value: { items: ["alpha", "beta", "gamma"] } }]);
  });

  test("with `keep`, the server leaves the kept levels to the client: their loaders do not run", async () => {
    const build = await buildOf();
    const page = await fetchPageData(new URL("/shop/items/1", live.origin), build, signal(), { keep: 1 });
    expect(page.payload.levels).toEqual([
      { id: "shop", kept: true },
      { id: "/shop/items/:id", data: { id: "1", likes: 0 } },
    ]);
  });

  test("a post: the action's data with the page after it, and its status", async () => {
    const build = await buildOf();
    const page = await fetchPageData(new URL("/plan/items/1", live.origin), build, signal(), {
      body: new URLSearchParams({ note: "" }),
    });
    expect(page.status).toBe(422);
    expect(page.payload.actionData).toEqual({ error: "A note is required" });
  });

  test("page data of another build: NotPageData (a GET's page, a post refused with 409 before its action)", async () => {
    const other = "another-build";
    expect(fetchPageData(new URL("/", live.origin), other, signal())).rejects.toBeInstanceOf(NotPageData);
    const refused = await fetchPageData(new URL("/plan/items/1", live.origin), other, signal(), {
      body: new URLSearchParams({ note: "x" }),
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(NotPageData);
    expect((refused as NotPageData).status).toBe(409);
  });

  test("a route without a page: NotPageData with its response, unread", async () => {
    const build = await buildOf();
    const response = await fetchPageData(new URL("/resource?q=x", live.origin), build, signal()).catch(
      (e: unknown) => e,
    );
    expect(response).toBeInstanceOf(NotPageData);
    expect((response as NotPageData).status).toBe(200);
    expect(await (response as NotPageData).response!.json()).toEqual({ resource: true, q: "x" });
  });

  test("nobody listening: the network's own failure, not NotPageData", async () => {
    const nowhere = new URL(`http://localhost:${await freePort()}/`);
    // Page data is asked of the page's own origin.
    setPageUrl(nowhere.href);
    const failure = await fetchPageData(nowhere, "any", signal()).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(NotPageData);
  });
});
