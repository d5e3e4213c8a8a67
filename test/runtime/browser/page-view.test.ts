// livePage (page-view.ts): a payload as the page reads it: each level's data, streamed values as promises settled
// by the lines that follow, kept levels from the page they were kept from, and what never came failing at the end.
import { describe, expect, test } from "bun:test";
import { livePage } from "../../../src/runtime/browser/page-view.ts";
import { pagePayload } from "../../../src/server/testing/dom.tsx";

const layout = { id: "shop", data: { who: "ada" } };
const child = { id: "/shop/items/:id", data: { id: "3" }, deferred: ["reviews"] };

describe("livePage", () => {
  test("each level's data by route id; a streamed key is a promise its settlement fulfils, once", async () => {
    const live = livePage(pagePayload({ levels: [layout, child] }));
    expect(live.view.data.get("shop")).toEqual({ who: "ada" });
    const { id, reviews } = live.view.data.get("/shop/items/:id") as { id: string; reviews: Promise<string[]> };
    expect(id).toBe("3");
    live.settle({ route: "/shop/items/:id", key: "reviews", value: ["good"] });
    live.settle({ route: "/shop/items/:id", key: "reviews", value: ["ignored"] });
    live.settle({ route: "/shop/items/:id", key: "unknown", value: 1 });
    expect(await reviews).toEqual(["good"]);
    expect(live.settlements.map(([key]) => key)).toEqual(["/shop/items/:id\nreviews"]);
  });

  test("a streamed value's error rejects with the server's digest; an outcome rejects as that outcome", async () => {
    const live = livePage(pagePayload({ levels: [{ id: "a", data: {}, deferred: ["x", "y"] }] }));
    const { x, y } = live.view.data.get("a") as { x: Promise<unknown>; y: Promise<unknown> };
    live.settle({ route: "a", key: "x", error: { digest: "abcdefghij", side: "server" } });
    live.settle({ route: "a", key: "y", outcome: { kind: "not-found", status: 404 } });
    expect(x).rejects.toMatchObject({ digest: "abcdefghij", side: "server" });
    expect(y).rejects.toMatchObject({ kind: "not-found", status: 404 });
  });

  test("a kept level takes the data of the page it was kept from, the very same object", () => {
    const shown = livePage(pagePayload({ levels: [layout, { id: "/shop", data: null }] })).view;
    const next = livePage(pagePayload({ levels: [{ id: "shop", kept: true }, child] }), shown);
    expect(next.view.data.get("shop")).toBe(shown.data.get("shop"));
    expect(next.view.data.get("/shop/items/:id")).toMatchObject({ id: "3" });
  });

  test("the stream ended: what never came fails as lost, on the client's side, without a digest", async () => {
    const live = livePage(pagePayload({ levels: [child] }));
    const { reviews } = live.view.data.get("/shop/items/:id") as { reviews: Promise<unknown> };
    live.end();
    expect(reviews).rejects.toMatchObject({
      side: "client",
      digest: undefined,
      message: "The page data stream ended before this value arrived",
    });
  });
});
