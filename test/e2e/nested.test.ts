// Nested routes in Chromium, against the fixture app's /shop layout on a real socket: the layout stays mounted
// (its state, its loader's count) while its children change on the client, failures show inside it, and
// each level hydrates from its own data.
import { describe, expect, test } from "bun:test";
import type { Page, Request as BrowserRequest } from "playwright-core";
import { hydrated, watchPage, type PageWatch } from "brisk/test";
import { chromiumOnFixture } from "../support/chromium-on-fixture.ts";

const on = chromiumOnFixture();

interface Opened {
  page: Page;
  watch: PageWatch;
  /** The page-data URLs fetched, as path and search. */
  data: string[];
}

async function open(path: string): Promise<Opened> {
  const page = await on.browser.newPage();
  const watch = watchPage(page);
  const data: string[] = [];
  page.on("request", (r: BrowserRequest) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/__data/")) data.push(url.pathname + url.search);
  });
  await page.goto(on.server.origin + path);
  await hydrated(page);
  return { page, watch, data };
}

const loads = async (page: Page) => Number(await page.textContent("#shop-loads"));

describe("moving between children of a layout", () => {
  test("keeps the layout mounted (its input keeps what was typed), does not run its loader again, loads no document", async () => {
    const { page, watch, data } = await open("/shop");
    await page.fill("#shop-input", "typed before");
    const before = await loads(page);
    await page.click('a[href="/shop/items/1"]');
    await page.waitForSelector("#item");
    expect(await page.textContent("#item")).toBe("Item 1, 0 likes, seen by nobody");
    await page.click('a[href="/shop/items/2"]');
    await page.waitForFunction(() => document.querySelector("#item")?.textContent?.startsWith("Item 2"));
    expect(await page.inputValue("#shop-input")).toBe("typed before");
    expect(await loads(page)).toBe(before);
    // Page data asked only for the levels that changed.
    expect(data).toEqual(["/__data/shop/items/1?_keep=1", "/__data/shop/items/2?_keep=1"]);
    expect(watch.documents).toHaveLength(1);
    expect(watch.problems).toEqual([]);
    await page.close();
  });

  test("a new search loads every level again, still without re-mounting the layout", async () => {
    const { page, data } = await open("/shop/items/2");
    await page.fill("#shop-input", "kept");
    const before = await loads(page);
    await page.click('a[href="/shop/items/2?sort=price"]');
    await page.waitForFunction((n) => Number(document.querySelector("#shop-loads")?.textContent) > n, before);
    expect(data).toEqual(["/__data/shop/items/2?sort=price"]);
    expect(await page.inputValue("#shop-input")).toBe("kept");
    await page.close();
  });

  test("back and forward move between children the same way", async () => {
    const { page } = await open("/shop/items/1");
    await page.fill("#shop-input", "history");
    await page.click('a[href="/shop/items/2"]');
    await page.waitForFunction(() => document.querySelector("#item")?.textContent?.startsWith("Item 2"));
    await page.goBack();
    await page.waitForFunction(() => document.querySelector("#item")?.textContent?.startsWith("Item 1"));
    expect(await page.inputValue("#shop-input")).toBe("history");
    await page.close();
  });
});

describe("failures inside the layout", () => {
  test("a child's not-found on client navigation: the layout's own page inside the layout, which stays", async () => {
    const { page, watch } = await open("/shop");
    await page.fill("#shop-input", "still here");
    await page.click('a[href="/shop/items/404"]');
    await page.waitForSelector("#shop-not-found");
    expect(await page.inputValue("#shop-input")).toBe("still here");
    expect(watch.documents).toHaveLength(1);
    await page.close();
  });

  test("a child's loader error on client navigation: the digest inside the layout; the next link recovers", async () => {
    const { page } = await open("/shop");
    await page.click('a[href="/shop/broken"]');
    await page.waitForSelector("#shop-error");
    expect(await page.textContent("#shop-error")).toMatch(/The shop failed \(server\)\. Digest: [0-9a-z]{10}/);
    expect(await page.isVisible("#shop-nav")).toBe(true);
    await page.click('a[href="/shop/items/1"]');
    await page.waitForSelector("#item");
    expect(await page.isVisible("#shop-error")).toBe(false);
    await page.close();
  });

  test("a child that throws while rendering, loaded as a document, hydrates with the error inside the layout", async () => {
    const { page, watch } = await open("/shop/render-broken");
    expect(await page.textContent("#shop-error")).toMatch(/The shop failed \(server\)\. Digest: [0-9a-z]{10}/);
    expect(await page.isVisible("#shop-nav")).toBe(true);
    await page.waitForLoadState("networkidle");
    expect(watch.problems.filter((p) => !p.includes("500"))).toEqual([]);
    await page.close();
  });

  test("a child that throws in the browser: the layout's error page inside the layout, with a client digest", async () => {
    const { page } = await open("/shop/client-broken");
    await page.fill("#shop-input", "survives");
    await page.click("#shop-throw");
    await page.waitForSelector("#shop-error");
    expect(await page.textContent("#shop-error")).toMatch(/The shop failed \(client\)\. Digest: [0-9a-z]{10}/);
    expect(await page.inputValue("#shop-input")).toBe("survives");
    await page.close();
  });

  test("a streamed value of a child arrives into its Suspense boundary inside the layout", async () => {
    const { page, watch } = await open("/shop/late");
    await page.waitForSelector("#late-child");
    expect(watch.problems).toEqual([]);
    expect(await page.textContent("#late-child")).toBe("late child value");
    await page.close();
  });
});

describe("routes without a page", () => {
  const likesOf = async (page: Page) => Number(/(\d+) likes/.exec((await page.textContent("#item")) ?? "")?.[1]);

  test("a form posted to one with JavaScript: its redirect is followed on the client, the count goes up", async () => {
    const { page, watch } = await open("/shop/items/11");
    const before = await likesOf(page);
    await page.click("button[type=submit]");
    await page.waitForFunction(
      (n) => new RegExp(`${n + 1} likes`).test(document.querySelector("#item")?.textContent ?? ""),
      before,
    );
    expect(watch.documents).toHaveLength(1);
    expect(watch.problems).toEqual([]);
    await page.close();
  });

  test("the same form with JavaScript off: a document post, its 303 followed by the browser", async () => {
    const context = await on.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${on.server.origin}/shop/items/12`);
    const before = await likesOf(page);
    const [response] = await Promise.all([page.waitForNavigation(), page.click("button[type=submit]")]);
    expect(response?.url()).toBe(`${on.server.origin}/shop/items/12`);
    expect(await likesOf(page)).toBe(before + 1);
    await context.close();
  });

  test("a link to one loads it as a document: the client cannot show it as a page", async () => {
    const { page } = await open("/shop/items/1");
    await Promise.all([page.waitForURL(`${on.server.origin}/feed.xml`), page.click("text=Feed")]);
    expect(await page.content()).toContain("Fixture &amp;amp; feed");
    await page.close();
  });
});
