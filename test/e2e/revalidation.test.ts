// Revalidation in Chromium on the fixture app: after any action every level of the next page loads (a shop's
// header count after a redirecting fetcher), React Router's defaults for links, and a route's shouldRevalidate
// narrowing and widening them; the page-data requests say which levels were asked for.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { chromiumOnFixture } from "../support/chromium-on-fixture.ts";
import { hold, openPage, recordTexts, seenTexts } from "../support/opened-page.ts";

const on = chromiumOnFixture();
const open = (path: string, javaScript = true) => openPage(on.browser, on.server.origin, path, { javaScript });
const number = async (page: Page, selector: string) => Number(await page.textContent(selector));

describe("after a fetcher whose action redirects (a shop's Add to cart)", () => {
  test("the layout's count shows the new count without a reload, counted at once (useFetchers, the fetcher's key) and never taken back", async () => {
    const { page, watch, data } = await open("/shop/items/21");
    const [cart, loads] = [await number(page, "#cart"), await number(page, "#shop-loads")];
    await recordTexts(page, "#cart");
    const release = await hold(page, "**/__data/shop/cart");
    await page.click("#add-to-cart");
    // Counted by the layout from the fetcher in flight (useFetchers), before the server confirms it.
    await page.waitForFunction((n) => Number(document.querySelector("#cart")?.textContent) === n + 1, cart);
    // The layout reads the item page's fetcher by its key.
    expect(await page.textContent("#cart-state")).toBe("submitting");
    release();
    await page.locator("#add-state", { hasText: "idle" }).waitFor();
    expect(await page.textContent("#cart-state")).toBe("idle");
    expect(await number(page, "#cart")).toBe(cart + 1);
    expect(await number(page, "#shop-loads")).toBe(loads + 1);
    expect(new Set(await seenTexts(page))).toEqual(new Set([String(cart + 1)]));
    // The redirect's page asked for every level: none kept.
    expect(data).toEqual(["POST /__data/shop/cart", "/__data/shop/items/21"]);
    expect(page.url()).toBe(`${on.server.origin}/shop/items/21`);
    expect(watch.documents).toHaveLength(1);
    expect(watch.problems).toEqual([]);
    await page.context().close();
  });

  test("with JavaScript off the same form posts, the browser follows the 303, and the page shows the count", async () => {
    const { page } = await open("/shop/items/22", false);
    const cart = await number(page, "#cart");
    const [response] = await Promise.all([page.waitForNavigation(), page.click("#add-to-cart")]);
    expect(response?.url()).toBe(`${on.server.origin}/shop/items/22`);
    expect(await number(page, "#cart")).toBe(cart + 1);
    await page.context().close();
  });
});

describe("which levels a move loads", () => {
  test("a link between children keeps the layout; one to the item the layout's shouldRevalidate names loads it too", async () => {
    const { page, data } = await open("/plan/items/1");
    const loads = await number(page, "#plan-loads");
    await page.click('a[href="/plan/items/2"]');
    await page.locator("#plan-item", { hasText: "Item 2" }).waitFor();
    expect(await number(page, "#plan-loads")).toBe(loads);
    await page.click('a[href="/plan/items/fresh"]');
    await page.locator("#plan-item", { hasText: "Item fresh" }).waitFor();
    expect(await number(page, "#plan-loads")).toBe(loads + 1);
    expect(data).toEqual(["/__data/plan/items/2?_keep=1", "/__data/plan/items/fresh"]);
    await page.context().close();
  });

  test("after a fetcher's action with data every level loads; after the action the layout's shouldRevalidate names, the layout is kept", async () => {
    const { page, data } = await open("/plan/items/1");
    const loads = await number(page, "#plan-loads");
    await page.click("#loud");
    await page.locator("#loud-state", { hasText: "idle" }).waitFor();
    const after = await number(page, "#plan-loads");
    expect(after).toBeGreaterThan(loads);
    await page.click("#quiet");
    await page.locator("#quiet-state", { hasText: "idle" }).waitFor();
    expect(await number(page, "#plan-loads")).toBe(after);
    // A post to the page showing answers with every level loaded after the action: nothing asks again.
    expect(data).toEqual(["POST /__data/plan/items/1", "POST /__data/plan/quiet", "/__data/plan/items/1?_keep=1"]);
    await page.context().close();
  });

  test("a fetcher's post to another page runs none of that page's loaders: the page showing loads again instead", async () => {
    const { page, data } = await open("/plan/items/2");
    const itemLoads = () => page.textContent("#plan-item").then((text) => Number(/loaded (\d+) times/.exec(text!)![1]));
    const before = await itemLoads();
    await page.click('a[href="/plan/items/1"]');
    await page.locator("#plan-item", { hasText: "Item 1" }).waitFor();
    await page.click("#elsewhere");
    await page.locator("#elsewhere-state", { hasText: "idle" }).waitFor();
    await page.click('a[href="/plan/items/2"]');
    await page.locator("#plan-item", { hasText: "Item 2" }).waitFor();
    // Loaded by this last visit alone: the post to it ran its action, not its loaders.
    expect(await itemLoads()).toBe(before + 1);
    expect(data).toEqual([
      "/__data/plan/items/1?_keep=1",
      "POST /__data/plan/items/2?_keep=all",
      "/__data/plan/items/1",
      "/__data/plan/items/2?_keep=1",
    ]);
    await page.context().close();
  });

  test("a <Form> whose action answers 422: the errors show, and the levels keep the data they showed", async () => {
    const { page, data, watch } = await open("/plan/items/1");
    const [layout, item] = [await number(page, "#plan-loads"), await page.textContent("#plan-item")];
    await page.fill("#note", "   ");
    await page.click("#save-note");
    await page.locator("#note-error", { hasText: "A note is required" }).waitFor();
    expect(await number(page, "#plan-loads")).toBe(layout);
    expect(await page.textContent("#plan-item")).toBe(item);
    expect(data).toEqual(["POST /__data/plan/items/1"]);
    expect(watch.problems.filter((p) => !p.includes("422"))).toEqual([]);
    await page.context().close();
  });
});
