// Nested routes and routes without a page in Chromium: moving between /examples/nested's children keeps the layout
// (what was typed, its loader's count) without a document load, a child's not-found and error show inside it, the
// guestbook's Like button works with JavaScript on and off, and the RSS feed is XML a strict parser reads.
import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { useChromium } from "./chromium.ts";

const chromium = useChromium();
const { open } = chromium;

/** One new guestbook entry, through the API. */
async function addEntry(name: string, message: string): Promise<number> {
  const res = await fetch(`${chromium.served.origin}/api/guestbook`, { method: "POST", headers: { origin: chromium.served.origin, "content-type": "application/json" }, body: JSON.stringify({ name, message }) });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

const nav = (page: Page, href: string) => page.click(`#nested-nav a[href="${href}"]`);
const layoutLoads = async (page: Page) => Number(await page.textContent("#layout-loads"));

test("moving between the children keeps the layout: what was typed, its loader's count, one document load", async () => {
  const { page, watch } = await open("/examples/nested");
  await page.fill("#nested-input", "typed before moving");
  const loads = await layoutLoads(page);
  const steps: Array<[href: string, shown: string, text: RegExp]> = [
    ["/examples/nested/items/1", "#item", /^Item 1$/],
    ["/examples/nested/items/2", "#item", /^Item 2$/],
    ["/examples/nested/slow", "#slow", /side by side/],
    ["/examples/nested", "#nested-index", /index route/],
  ];
  for (const [href, shown, text] of steps) {
    await nav(page, href);
    await page.waitForURL(chromium.served.origin + href);
    await page.locator(shown).filter({ hasText: text }).waitFor();
    expect(await page.inputValue("#nested-input")).toBe("typed before moving");
    expect(await layoutLoads(page)).toBe(loads);
  }
  expect(watch.documents).toEqual([`${chromium.served.origin}/examples/nested`]);
  expect(watch.problems).toEqual([]);
  await page.close();
});

test("a child's not-found shows inside the layout, which stays as it was", async () => {
  const { page, watch } = await open("/examples/nested/items/1");
  await page.fill("#nested-input", "still here");
  await nav(page, "/examples/nested/items/404");
  await page.getByRole("heading", { name: "404 Not in this layout" }).waitFor();
  expect(await page.isVisible("#nested-nav")).toBe(true);
  expect(await page.inputValue("#nested-input")).toBe("still here");
  expect(await page.locator("#item").count()).toBe(0);
  // And back: the child again, in the same layout.
  await nav(page, "/examples/nested/items/2");
  await page.locator("#item", { hasText: "Item 2" }).waitFor();
  expect(await page.inputValue("#nested-input")).toBe("still here");
  expect(watch.documents).toEqual([`${chromium.served.origin}/examples/nested/items/1`]);
  expect(watch.problems).toEqual([]);
  await page.close();
});

test("the broken child shows the error and its digest inside the layout, on a document and after a client navigation", async () => {
  const direct = await open("/examples/nested/broken");
  const digest = await direct.page.textContent(".nested-error .digest code");
  expect(digest).toMatch(/^[0-9a-z]{6,}$/);
  expect(await direct.page.isVisible("#nested-nav")).toBe(true);
  expect(direct.watch.problems).toEqual([]);
  await direct.page.close();

  const { page, watch } = await open("/examples/nested");
  await page.fill("#nested-input", "kept through the error");
  await nav(page, "/examples/nested/broken");
  await page.locator(".nested-error .digest code").waitFor();
  expect(await page.textContent(".nested-error .digest code")).not.toBe(digest);
  expect(await page.isVisible("#nested-nav")).toBe(true);
  expect(await page.inputValue("#nested-input")).toBe("kept through the error");
  expect(await page.getByRole("heading", { name: "Application error" }).count()).toBe(0);
  expect(watch.documents).toEqual([`${chromium.served.origin}/examples/nested`]);
  expect(watch.problems).toEqual([]);
  await page.close();
});

test("Like with JavaScript off: the browser posts the form, follows the 303 and shows the new count", async () => {
  const id = await addEntry("No script", `like without JavaScript ${crypto.randomUUID()}`);
  const context = await chromium.browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const documents: string[] = [];
  page.on("request", (r) => void (r.resourceType() === "document" && documents.push(`${r.method()} ${new URL(r.url()).pathname}`)));
  await page.goto(`${chromium.served.origin}/examples/guestbook`);
  const entry = page.locator("ol.entries li", { has: page.locator(`a[href="/examples/guestbook/${id}"]`) });
  expect(await entry.locator(".likes").textContent()).toBe("0");
  await Promise.all([page.waitForResponse((r) => r.url() === `${chromium.served.origin}/examples/guestbook` && r.request().method() === "GET"), entry.getByRole("button", { name: "Like" }).click()]);
  await page.waitForLoadState();
  expect(page.url()).toBe(`${chromium.served.origin}/examples/guestbook`);
  expect(await entry.locator(".likes").textContent()).toBe("1");
  expect(documents).toEqual(["GET /examples/guestbook", `POST /examples/guestbook/${id}/like`, "GET /examples/guestbook"]);
  await context.close();
});

test("Like with JavaScript on: the count goes up in place, without a document load", async () => {
  const id = await addEntry("Script", `like with JavaScript ${crypto.randomUUID()}`);
  const { page, watch } = await open("/examples/guestbook");
  const entry = page.locator("ol.entries li", { has: page.locator(`a[href="/examples/guestbook/${id}"]`) });
  await entry.getByRole("button", { name: "Like" }).click();
  await entry.locator(".likes", { hasText: /^1$/ }).waitFor();
  await entry.getByRole("button", { name: "Like" }).click();
  await entry.locator(".likes", { hasText: /^2$/ }).waitFor();
  expect(page.url()).toBe(`${chromium.served.origin}/examples/guestbook`);
  expect(watch.documents).toEqual([`${chromium.served.origin}/examples/guestbook`]);
  expect(watch.problems).toEqual([]);
  await page.close();
});

test("the RSS feed is well-formed XML to Chromium's strict parser, each entry's text exactly as written", async () => {
  const name = `<i>Feed</i> & "reader's"`;
  const message = "<script>alert('x')</script> &amp; ]]> \u2028 done";
  const id = await addEntry(name, message);
  const page = await chromium.browser.newPage();
  await page.goto(`${chromium.served.origin}/examples/guestbook.rss`);
  const feed = await page.evaluate(async (link) => {
    const xml = await (await fetch("/examples/guestbook.rss")).text();
    const doc = new DOMParser().parseFromString(xml, "application/xml");
    const item = [...doc.querySelectorAll("item")].find((i) => i.querySelector("link")?.textContent === link);
    // A reader renders the description as HTML: what a person reads is that HTML's text.
    const shown = document.createElement("div");
    shown.innerHTML = item?.querySelector("description")?.textContent ?? "";
    return {
      errors: doc.getElementsByTagName("parsererror").length,
      root: doc.documentElement.nodeName,
      version: doc.documentElement.getAttribute("version"),
      title: item?.querySelector("title")?.textContent,
      description: shown.textContent,
      markup: shown.querySelectorAll("script, i").length,
      pubDate: Date.parse(item?.querySelector("pubDate")?.textContent ?? ""),
    };
  }, `${chromium.served.origin}/examples/guestbook/${id}`);
  expect(feed).toEqual({ errors: 0, root: "rss", version: "2.0", title: name, description: message, markup: 0, pubDate: expect.any(Number) });
  expect(Number.isNaN(feed.pubDate)).toBe(false);
  await page.close();
});
